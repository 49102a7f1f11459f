/**
 * The kernel's agenda: a binary min-heap ordered by (time, seq). `seq` is the insertion
 * counter, so two events at the same virtual time always run in the order they were
 * scheduled. That total order is what makes a run repeatable byte for byte.
 */
export interface Scheduled<T> {
  readonly at: number;
  readonly seq: number;
  readonly item: T;
}

export class EventQueue<T> {
  private heap: Scheduled<T>[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `item` at virtual time `at`; returns its sequence number. */
  push(at: number, item: T): number {
    const entry = { at, seq: this.nextSeq++, item };
    this.heap.push(entry);
    this.siftUp(this.heap.length - 1);
    return entry.seq;
  }

  peek(): Scheduled<T> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top !== undefined && last !== undefined && heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const entry = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, entry)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}

function before(a: Scheduled<unknown>, b: Scheduled<unknown>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
