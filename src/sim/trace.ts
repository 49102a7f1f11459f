import { assert, AssertionError } from './assert';
import { Hash64 } from './hash';
import type { TraceEvent, TraceEventMap, TraceKind } from './traceEvents';
import type { SimTimeMs } from './time';

/**
 * Data kept as a number and a reference the caller already holds, decoded by a shared codec
 * whenever it is read. The hottest events (every message sent and delivered, every command) are
 * recorded this way: an object per event, even one that built its data lazily, was an object
 * the trace kept alive, and a contended run spent a third of its time having the garbage
 * collector move those objects to the old generation. A codec keeps nothing per event beyond a
 * number and a reference that is usually shared (a command line, a label).
 */
export abstract class TraceCodec {
  /** The event's data as readers expect it for `kind`, from what `Trace.appendCoded` stored. */
  abstract decode(kind: TraceKind, num: number, ref: unknown, trace: Trace): unknown;
}

/**
 * Names (event kinds, actor ids) stored as small numbers: a trace holds hundreds of thousands
 * of events but only a few dozen distinct names.
 */
class Names<T extends string> {
  private readonly index = new Map<T, number>();
  readonly list: T[] = [];

  /** `limit`: how many names fit in the bits a stored event gives them. */
  constructor(
    private readonly what: string,
    private readonly limit: number,
  ) {}

  idOf(name: T): number {
    let id = this.index.get(name);
    if (id === undefined) {
      id = this.list.length;
      assert(id < this.limit, () => `A trace holds at most ${this.limit} ${this.what}; "${name}" would be one more.`);
      this.index.set(name, id);
      this.list.push(name);
    }
    return id;
  }
}

/** Actor ids stay below this where a coded event's number carries one (see withActor). */
const ACTOR_SPAN = 2 ** 20;

/**
 * `n` and an actor id (Trace.actorId) as one coded event's number: a message id and the peer
 * it came from or goes to, say. `n` may be negative; read back with numberOf and actorOf.
 */
export function withActor(n: number, actorId: number): number {
  // Every coded event packs one: checked without building a message unless it fails.
  if (!(Number.isSafeInteger(n * ACTOR_SPAN) && actorId >= 0 && actorId < ACTOR_SPAN))
    throw new AssertionError(`Cannot pack ${n} with actor ${actorId} into one number.`);
  return n * ACTOR_SPAN + actorId;
}

/** The `n` that withActor packed. */
export function numberOf(packed: number): number {
  return Math.floor(packed / ACTOR_SPAN);
}

/** The actor id that withActor packed. */
export function actorOf(packed: number): number {
  return packed - numberOf(packed) * ACTOR_SPAN;
}

/** An event's kind and actor as one number (see Trace.tagOf); `K` keeps the kind for the type checker. */
export type TraceTag<K extends TraceKind = TraceKind> = number & { readonly kind?: K };

/** Events per chunk of each column (a power of two). */
const CHUNK_BITS = 10;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;
/** A kind and an actor share one small integer: kind id + actor id × KIND_IDS. */
const KIND_IDS = 1 << 10;

/** The typed columns of one chunk, kept for reuse once their trace is released. */
interface SpareColumns {
  times: Float64Array;
  tags: Int32Array;
  nums: Float64Array;
}

/**
 * Columns of released traces (see Trace.release), taken by the next trace that needs a chunk.
 * The explorer makes thousands of short runs a second: allocating each one's typed arrays anew
 * left V8 sweeping three array buffers a run on a background thread, which a second worker then
 * had to share a core with. A spare chunk is never read before it is written again (events are
 * read below the trace's length only), so reuse changes no trace.
 */
const spareColumns: SpareColumns[] = [];
const MAX_SPARE_CHUNKS = 8;

function outOfOrder(id: number, at: number, previousAt: number): never {
  throw new AssertionError(`Event ${id} at ${at} ms comes before the one it follows (${previousAt} ms).`);
}

/**
 * The append-only record of a run: the single source of truth for the timeline, the verdicts
 * and the tests. Stored as columns (time, kind and actor, data, and a coded event's number and
 * reference), each in fixed-size chunks: kinds and actors are numbers into name tables, numbers
 * live in typed arrays, and a chunk is allocated once at full size, so appending never copies a
 * long array (growing one array per column cost ten times more than the appends themselves).
 * An event object is only built when someone reads it.
 */
export class Trace {
  private readonly times: Float64Array[] = [];
  private readonly tags: Int32Array[] = [];
  private readonly datas: unknown[][] = [];
  /** A coded event's number and reference (see TraceCodec); unused by other events. */
  private readonly nums: Float64Array[] = [];
  private readonly refs: unknown[][] = [];
  private count = 0;
  /** The time of the last event appended (0 before the first). */
  private lastAt = 0;
  /** The id at which the last chunk is full and a new one is needed. */
  private limit = 0;
  private readonly kindNames = new Names<TraceKind>('event kinds', KIND_IDS);
  /** An actor id times KIND_IDS must fit the Int32 tag, and withActor packs ids below ACTOR_SPAN. */
  private readonly actorNames = new Names<string>('actors', ACTOR_SPAN);

  get length(): number {
    return this.count;
  }

  append<K extends TraceKind>(at: SimTimeMs, kind: K, actor: string, data: TraceEventMap[K]): number {
    return this.appendTagged(at, this.tagOf(kind, actor), data);
  }

  /**
   * The small integer an event's kind and actor are stored as. A hot recorder (the network for
   * every message, a lock client for every attempt) works it out once and appends with it,
   * saving two name lookups per event.
   */
  tagOf<K extends TraceKind>(kind: K, actor: string): TraceTag<K> {
    return this.kindNames.idOf(kind) + this.actorNames.idOf(actor) * KIND_IDS;
  }

  /** Appends an event whose data `codec` decodes from `num` and `ref` when it is read. */
  appendCoded(at: SimTimeMs, tag: TraceTag, codec: TraceCodec, num: number, ref: unknown): number {
    const id = this.appendTagged(at, tag, codec);
    this.nums[id >> CHUNK_BITS]![id & IN_CHUNK] = num;
    this.refs[id >> CHUNK_BITS]![id & IN_CHUNK] = ref;
    return id;
  }

  /** Like append(), for a kind and actor given as `tagOf(kind, actor)`. */
  appendTagged<K extends TraceKind>(at: SimTimeMs, tag: TraceTag<K>, data: TraceEventMap[K] | TraceCodec): number {
    const id = this.count++;
    // Readers (the timeline, the checkers) take the trace to be in time order. This runs for every
    // event of every run: one comparison, and the message is built elsewhere, only on failure.
    if (!(at >= this.lastAt)) outOfOrder(id, at, this.lastAt);
    this.lastAt = at;
    if (id === this.limit) this.makeRoom(id);
    const chunk = id >> CHUNK_BITS;
    const slot = id & IN_CHUNK;
    this.times[chunk]![slot] = at;
    this.tags[chunk]![slot] = tag;
    this.datas[chunk]![slot] = data;
    return id;
  }

  /**
   * Adds a chunk. The numeric columns are typed arrays, whose contents the garbage collector
   * neither scans nor copies when a chunk outlives a young collection (copying plain arrays of
   * numbers into the old generation was a third of what recording cost). The first chunk's
   * plain columns start empty and grow: most runs a sweep makes are far shorter than a chunk.
   */
  private makeRoom(id: number): void {
    const spare = spareColumns.pop();
    this.times.push(spare?.times ?? new Float64Array(CHUNK));
    this.tags.push(spare?.tags ?? new Int32Array(CHUNK));
    this.nums.push(spare?.nums ?? new Float64Array(CHUNK));
    this.datas.push(id === 0 ? [] : new Array<unknown>(CHUNK));
    this.refs.push(id === 0 ? [] : new Array<unknown>(CHUNK));
    this.limit = id + CHUNK;
  }

  /**
   * Hands the trace's typed columns over to the next trace, once nothing will read this one again
   * (an explorer run, judged). The trace is empty afterwards: reading an event from it throws.
   */
  release(): void {
    for (let chunk = 0; chunk < this.times.length && spareColumns.length < MAX_SPARE_CHUNKS; chunk++) {
      spareColumns.push({ times: this.times[chunk]!, tags: this.tags[chunk]!, nums: this.nums[chunk]! });
    }
    this.times.length = this.tags.length = this.nums.length = this.datas.length = this.refs.length = 0;
    this.count = this.limit = this.lastAt = 0;
  }

  /** A small number standing for an actor's name (for codecs that store a peer). */
  actorId(name: string): number {
    return this.actorNames.idOf(name);
  }

  actorName(id: number): string {
    return this.actorNames.list[id]!;
  }

  get(id: number): TraceEvent {
    if (id < 0 || id >= this.length) throw new RangeError(`No trace event ${id} (trace has ${this.length}).`);
    return {
      id,
      at: this.timeAt(id),
      kind: this.kindAt(id),
      actor: this.actorAt(id),
      data: this.dataAt(id),
    } as TraceEvent;
  }

  kindAt(id: number): TraceKind {
    return this.kindNames.list[this.tagAt(id) % KIND_IDS]!;
  }

  timeAt(id: number): number {
    return this.times[id >> CHUNK_BITS]![id & IN_CHUNK]!;
  }

  actorAt(id: number): string {
    return this.actorNames.list[Math.floor(this.tagAt(id) / KIND_IDS)]!;
  }

  private tagAt(id: number): number {
    return this.tags[id >> CHUNK_BITS]![id & IN_CHUNK]!;
  }

  /** The event's data, decoded now if it was recorded coded. */
  private dataAt(id: number): unknown {
    const chunk = id >> CHUNK_BITS;
    const slot = id & IN_CHUNK;
    const data = this.datas[chunk]![slot];
    if (!(data instanceof TraceCodec)) return data;
    return data.decode(this.kindAt(id), this.nums[chunk]![slot]!, this.refs[chunk]![slot], this);
  }

  *[Symbol.iterator](): IterableIterator<TraceEvent> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  /** The events of the given kinds only, in order (each keeps its id). */
  ofKinds(kinds: ReadonlySet<TraceKind>): TraceEvent[] {
    const wanted = this.kindNames.list.map((kind) => kinds.has(kind));
    const events: TraceEvent[] = [];
    for (let i = 0; i < this.count; i++) if (wanted[this.tagAt(i) % KIND_IDS]) events.push(this.get(i));
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
      h.update(`${this.timeAt(i)}|${this.kindAt(i)}|${this.actorAt(i)}|${JSON.stringify(this.dataAt(i))}\n`);
    }
    return h.hex();
  }
}
