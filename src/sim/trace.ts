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
 * Names (event kinds, actor ids) stored as small numbers: a trace holds hundreds of thousands
 * of events but only a few dozen distinct names.
 */
class Names<T extends string> {
  private readonly index = new Map<T, number>();
  readonly list: T[] = [];

  idOf(name: T): number {
    let id = this.index.get(name);
    if (id === undefined) {
      id = this.list.length;
      this.index.set(name, id);
      this.list.push(name);
    }
    return id;
  }
}

/**
 * The append-only record of a run: the single source of truth for the timeline, the verdicts
 * and the tests. Stored as columns (time, kind, actor, data): times in a typed array, kinds
 * and actors as numbers into name tables, so three of the four columns are arrays of small
 * integers that the garbage collector never has to scan. (Plain arrays rather than typed ones:
 * a sweep makes thousands of short runs, and a typed array's buffer is costly to allocate.)
 * An event object is only built when someone reads it.
 */
export class Trace {
  private readonly times: number[] = [];
  private readonly kinds: number[] = [];
  private readonly actors: number[] = [];
  private readonly datas: unknown[] = [];
  private readonly kindNames = new Names<TraceKind>();
  private readonly actorNames = new Names<string>();

  get length(): number {
    return this.times.length;
  }

  append<K extends TraceKind>(at: number, kind: K, actor: string, data: TraceEventMap[K] | LazyTraceData): number {
    this.kinds.push(this.kindNames.idOf(kind));
    this.actors.push(this.actorNames.idOf(actor));
    this.datas.push(data);
    return this.times.push(at) - 1;
  }

  get(id: number): TraceEvent {
    if (id < 0 || id >= this.length) throw new RangeError(`No trace event ${id} (trace has ${this.length}).`);
    return { id, at: this.times[id]!, kind: this.kindAt(id), actor: this.actorAt(id), data: this.dataAt(id) } as TraceEvent;
  }

  kindAt(id: number): TraceKind {
    return this.kindNames.list[this.kinds[id]!]!;
  }

  timeAt(id: number): number {
    return this.times[id]!;
  }

  actorAt(id: number): string {
    return this.actorNames.list[this.actors[id]!]!;
  }

  /** The event's data, built now if it was recorded lazily (and then kept). */
  private dataAt(id: number): unknown {
    const data = this.datas[id];
    if (!(data instanceof LazyTraceData)) return data;
    const built = data.dataFor(this.kindAt(id));
    this.datas[id] = built;
    return built;
  }

  /** Drops every event from `length` on: used when a run is rewound. */
  truncate(length: number): void {
    if (length >= this.length) return;
    this.times.length = this.kinds.length = this.actors.length = this.datas.length = length;
  }

  *[Symbol.iterator](): IterableIterator<TraceEvent> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  /** The events of the given kinds only, in order (each keeps its id). */
  ofKinds(kinds: ReadonlySet<TraceKind>): TraceEvent[] {
    const wanted = this.kindNames.list.map((kind) => kinds.has(kind));
    const events: TraceEvent[] = [];
    for (let i = 0; i < this.length; i++) if (wanted[this.kinds[i]!]) events.push(this.get(i));
    return events;
  }

  toArray(): TraceEvent[] {
    const events = new Array<TraceEvent>(this.length);
    for (let i = 0; i < events.length; i++) events[i] = this.get(i);
    return events;
  }

  /** A digest of every event, identical in Node and in any browser for the same run. */
  hash(): string {
    const h = new Hash64();
    for (let i = 0; i < this.length; i++) {
      h.update(`${this.times[i]}|${this.kindAt(i)}|${this.actorAt(i)}|${JSON.stringify(this.dataAt(i))}\n`);
    }
    return h.hex();
  }
}
