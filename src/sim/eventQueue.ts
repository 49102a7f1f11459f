/**
 * The kernel's agenda: a binary min-heap ordered by (time, seq). `seq` is the insertion
 * counter, so two events at the same virtual time always run in the order they were
 * scheduled. That total order is what makes a run repeatable byte for byte.
 *
 * The heap lives in three parallel arrays (times, sequence numbers, items) rather than one
 * object per entry: the kernel pushes and pops once per simulated event, and an entry object
 * each time was a measurable share of a run's garbage.
 */
export interface Scheduled<T> {
  readonly at: number;
  readonly seq: number;
  readonly item: T;
}

export class EventQueue<T> {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly items: (T | undefined)[] = [];
  private count = 0;
  private nextSeq = 0;

  get size(): number {
    return this.count;
  }

  /** Schedules `item` at virtual time `at`; returns its sequence number. */
  push(at: number, item: T): number {
    const seq = this.nextSeq++;
    const { times, seqs, items } = this;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < at || (pt === at && seqs[parent]! < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[parent]!;
      items[i] = items[parent];
      i = parent;
    }
    times[i] = at;
    seqs[i] = seq;
    items[i] = item;
    return seq;
  }

  /** When the earliest entry is due, or undefined when the queue is empty. */
  peekAt(): number | undefined {
    return this.count > 0 ? this.times[0] : undefined;
  }

  /** The earliest entry's item, or undefined when the queue is empty. */
  peekItem(): T | undefined {
    return this.count > 0 ? (this.items[0] as T) : undefined;
  }

  peek(): Scheduled<T> | undefined {
    return this.count > 0 ? { at: this.times[0]!, seq: this.seqs[0]!, item: this.items[0] as T } : undefined;
  }

  pop(): Scheduled<T> | undefined {
    if (this.count === 0) return undefined;
    const entry = { at: this.times[0]!, seq: this.seqs[0]!, item: this.items[0] as T };
    this.removeTop();
    return entry;
  }

  /** Removes the earliest entry and returns its item (read peekAt() first for its time). */
  popItem(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[0] as T;
    this.removeTop();
    return item;
  }

  /**
   * Drops every entry `drop` says so of, in one pass, and rebuilds the heap. The rest keep their
   * (time, seq), so they come out in exactly the order they would have.
   */
  removeWhere(drop: (item: T) => boolean): void {
    const { times, seqs, items } = this;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      if (drop(items[i] as T)) continue;
      times[kept] = times[i]!;
      seqs[kept] = seqs[i]!;
      items[kept] = items[i];
      kept++;
    }
    for (let i = kept; i < this.count; i++) items[i] = undefined;
    this.count = kept;
    times.length = seqs.length = items.length = kept;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private removeTop(): void {
    const { times, seqs, items } = this;
    const n = --this.count;
    // Move the last entry to the root and sift it down.
    times[0] = times[n]!;
    seqs[0] = seqs[n]!;
    items[0] = items[n];
    items[n] = undefined;
    if (n > 0) this.siftDown(0);
  }

  /** Moves the entry at `start` down until both its children come after it. */
  private siftDown(start: number): void {
    const { times, seqs, items } = this;
    const n = this.count;
    const at = times[start]!;
    const seq = seqs[start]!;
    const item = items[start];
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n) {
        const rt = times[right]!;
        const lt = times[left]!;
        if (rt < lt || (rt === lt && seqs[right]! < seqs[left]!)) child = right;
      }
      const ct = times[child]!;
      if (at < ct || (at === ct && seq < seqs[child]!)) break;
      times[i] = ct;
      seqs[i] = seqs[child]!;
      items[i] = items[child];
      i = child;
    }
    times[i] = at;
    seqs[i] = seq;
    items[i] = item;
  }
}
