import { Hash64 } from './hash';
import type { TraceEvent, TraceEventMap, TraceKind } from './traceEvents';

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

  append<K extends TraceKind>(at: number, kind: K, actor: string, data: TraceEventMap[K]): number {
    this.times.push(at);
    this.kinds.push(kind);
    this.actors.push(actor);
    this.datas.push(data);
    return this.times.length - 1;
  }

  get(id: number): TraceEvent {
    if (id < 0 || id >= this.times.length) throw new RangeError(`No trace event ${id} (trace has ${this.length}).`);
    return { id, at: this.times[id]!, kind: this.kinds[id]!, actor: this.actors[id]!, data: this.datas[id] } as TraceEvent;
  }

  kindAt(id: number): TraceKind {
    return this.kinds[id]!;
  }

  timeAt(id: number): number {
    return this.times[id]!;
  }

  /** Drops every event from `length` on: used when a run is rewound. */
  truncate(length: number): void {
    this.times.length = this.kinds.length = this.actors.length = this.datas.length = length;
  }

  *[Symbol.iterator](): IterableIterator<TraceEvent> {
    for (let i = 0; i < this.times.length; i++) yield this.get(i);
  }

  toArray(): TraceEvent[] {
    return [...this];
  }

  /** A digest of every event, identical in Node and in any browser for the same run. */
  hash(): string {
    const h = new Hash64();
    for (let i = 0; i < this.times.length; i++) {
      h.update(`${this.times[i]}|${this.kinds[i]}|${this.actors[i]}|${JSON.stringify(this.datas[i])}\n`);
    }
    return h.hex();
  }
}
