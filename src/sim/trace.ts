import { Hash64 } from './hash';
import type { TraceEvent, TraceEventMap, TraceKind } from './traceEvents';

/**
 * Data recorded now but built when first read. A hot path (every message sent and delivered)
 * stores the record it already has, e.g. the message in flight, instead of building a fresh
 * object and label per event; readers still see the plain `TraceEventMap` shape, built by
 * `dataFor(kind)` on the first read and kept from then on.
 */
export abstract class LazyTraceData {
  /** The event's data as readers expect it for `kind` (same keys, same order, every time). */
  abstract dataFor(kind: TraceKind): unknown;
}

/**
 * The append-only record of a run: the single source of truth for the timeline, the verdicts
 * and the tests. Stored as columns (time, kind, actor, data) so long runs stay compact; an
 * event object is only built when someone reads it.
 */
export class Trace {
  private readonly times: number[] = [];
  private readonly kinds: TraceKind[] = [];
  private readonly actors: string[] = [];
  private readonly datas: unknown[] = [];

  get length(): number {
    return this.times.length;
  }

  append<K extends TraceKind>(at: number, kind: K, actor: string, data: TraceEventMap[K] | LazyTraceData): number {
    this.times.push(at);
    this.kinds.push(kind);
    this.actors.push(actor);
    this.datas.push(data);
    return this.times.length - 1;
  }

  get(id: number): TraceEvent {
    if (id < 0 || id >= this.times.length) throw new RangeError(`No trace event ${id} (trace has ${this.length}).`);
    return { id, at: this.times[id]!, kind: this.kinds[id]!, actor: this.actors[id]!, data: this.dataAt(id) } as TraceEvent;
  }

  kindAt(id: number): TraceKind {
    return this.kinds[id]!;
  }

  timeAt(id: number): number {
    return this.times[id]!;
  }

  /** The event's data, built now if it was recorded lazily (and then kept). */
  private dataAt(id: number): unknown {
    const data = this.datas[id];
    if (!(data instanceof LazyTraceData)) return data;
    const built = data.dataFor(this.kinds[id]!);
    this.datas[id] = built;
    return built;
  }

  /** Drops every event from `length` on: used when a run is rewound. */
  truncate(length: number): void {
    this.times.length = this.kinds.length = this.actors.length = this.datas.length = length;
  }

  *[Symbol.iterator](): IterableIterator<TraceEvent> {
    for (let i = 0; i < this.times.length; i++) yield this.get(i);
  }

  toArray(): TraceEvent[] {
    const events = new Array<TraceEvent>(this.times.length);
    for (let i = 0; i < events.length; i++) events[i] = this.get(i);
    return events;
  }

  /** A digest of every event, identical in Node and in any browser for the same run. */
  hash(): string {
    const h = new Hash64();
    for (let i = 0; i < this.times.length; i++) {
      h.update(`${this.times[i]}|${this.kinds[i]}|${this.actors[i]}|${JSON.stringify(this.dataAt(i))}\n`);
    }
    return h.hex();
  }
}
