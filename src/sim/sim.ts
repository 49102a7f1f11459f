import { Kernel } from './kernel';
import { Prng } from './prng';
import { Trace, type TraceCodec, type TraceTag } from './trace';
import type { TraceEventMap, TraceKind } from './traceEvents';
import type { SimTimeMs } from './time';

/**
 * One run's shared machinery: the kernel (virtual time + agenda), the trace it writes, and
 * the root of its random streams. Subsystems take a Sim rather than each piece separately.
 */
export class Sim {
  readonly kernel = new Kernel();
  readonly trace = new Trace();
  readonly random: Prng;

  constructor(readonly seed: number) {
    this.random = Prng.fromSeed(seed);
  }

  get now(): SimTimeMs {
    return this.kernel.now;
  }

  /** Appends an event at the current virtual time; returns its id. */
  record<K extends TraceKind>(kind: K, actor: string, data: TraceEventMap[K]): number {
    return this.trace.append(this.kernel.now, kind, actor, data);
  }

  /** Like record(), for a kind and actor worked out once as `trace.tagOf(kind, actor)` (hot recorders). */
  recordTagged<K extends TraceKind>(tag: TraceTag<K>, data: TraceEventMap[K]): number {
    return this.trace.appendTagged(this.kernel.now, tag, data);
  }

  /** Like recordTagged(), with data kept as a number and a shared reference (see TraceCodec). */
  recordCoded(tag: TraceTag, codec: TraceCodec, num: number, ref: unknown): number {
    return this.trace.appendCoded(this.kernel.now, tag, codec, num, ref);
  }
}
