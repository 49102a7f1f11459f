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

const INITIAL_CAPACITY = 256;

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
 * and actors as numbers into name tables, so a long run costs a few bytes per event plus
 * whatever data it carries. An event object is only built when someone reads it.
 */
export class Trace {
  private times = new Float64Array(INITIAL_CAPACITY);
  private kinds = new Uint16Array(INITIAL_CAPACITY);
  private actors = new Uint16Array(INITIAL_CAPACITY);
  private readonly datas: unknown[] = [];
  private count = 0;
  private readonly kindNames = new Names<TraceKind>();
  private readonly actorNames = new Names<string>();

  get length(): number {
    return this.count;
  }

  append<K extends TraceKind>(at: number, kind: K, actor: string, data: TraceEventMap[K] | LazyTraceData): number {
    const id = this.count;
    if (id === this.times.length) this.grow();
    this.times[id] = at;
    this.kinds[id] = this.kindNames.idOf(kind);
    this.actors[id] = this.actorNames.idOf(actor);
    this.datas.push(data);
    this.count = id + 1;
    return id;
  }

  get(id: number): TraceEvent {
    if (id < 0 || id >= this.count) throw new RangeError(`No trace event ${id} (trace has ${this.length}).`);
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
    if (length >= this.count) return;
    this.count = length;
    this.datas.length = length;
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const times = new Float64Array(capacity);
    times.set(this.times);
    this.times = times;
    const kinds = new Uint16Array(capacity);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const actors = new Uint16Array(capacity);
    actors.set(this.actors);
    this.actors = actors;
  }

  *[Symbol.iterator](): IterableIterator<TraceEvent> {
    for (let i = 0; i < this.count; i++) yield this.get(i);
  }

  /** The events of the given kinds only, in order (each keeps its id). */
  ofKinds(kinds: ReadonlySet<TraceKind>): TraceEvent[] {
    const wanted = this.kindNames.list.map((kind) => kinds.has(kind));
    const events: TraceEvent[] = [];
    for (let i = 0; i < this.count; i++) if (wanted[this.kinds[i]!]) events.push(this.get(i));
    return events;
  }

  toArray(): TraceEvent[] {
    const events = new Array<TraceEvent>(this.count);
    for (let i = 0; i < events.length; i++) events[i] = this.get(i);
    return events;
  }

  /** A digest of every event, identical in Node and in any browser for the same run. */
  hash(): string {
    const h = new Hash64();
    for (let i = 0; i < this.count; i++) {
      h.update(`${this.times[i]}|${this.kindAt(i)}|${this.actorAt(i)}|${JSON.stringify(this.dataAt(i))}\n`);
    }
    return h.hex();
  }
}
