import { AssertionError } from './assert';
import { EventQueue } from './eventQueue';
import { simTime, type SimTimeMs } from './time';

/** What a scheduled callback belongs to, so a paused process can hold it and a crash drop it. */
export interface Owner {
  readonly id: string;
  /** 'run': handle it now; 'freeze': hold it until the owner resumes; 'drop': discard it. */
  disposition(): 'run' | 'freeze' | 'drop';
  /** Called with a callback that came due while the owner was paused. */
  freeze(task: FrozenTask): void;
}

/**
 * A callback that came due while its owner was paused: a timer whose deadline passed, a message
 * that arrived. It runs as soon as the owner resumes (see `thaw`), as a real runtime's overdue
 * timer does. `run` and `dropped` take `arg`, the value they were scheduled with.
 */
export interface FrozenTask {
  run: (arg: never) => void;
  dropped?: ((arg: never) => void) | undefined;
  arg: unknown;
  handle: number;
}

/**
 * One scheduled callback. A callback takes one argument so hot callers (the network, process
 * timers) can schedule a shared function with a small record instead of allocating a closure
 * per event.
 */
interface Task extends FrozenTask {
  owner: Owner | null;
}

/** How many cancelled callbacks may wait on the agenda before they are dropped together. */
const COMPACT_AT = 64;

function badDelay(delayMs: number): never {
  throw new AssertionError(
    `Cannot schedule a callback ${delayMs} ms from now: a delay is a finite number of ms, 0 or more.`,
  );
}

function timeWentBack(fromMs: number, toMs: number): never {
  throw new AssertionError(`Virtual time went back from ${fromMs} to ${toMs} ms.`);
}

/**
 * The deterministic heart of a run: a virtual clock and an agenda ordered by (time, seq).
 * Nothing here knows about Redis or locks. It never reads the wall clock and never sleeps:
 * `step()` jumps straight to the next scheduled moment.
 */
export class Kernel {
  private readonly queue = new EventQueue<Task>();
  private readonly cancelled = new Set<number>();
  private cancelsSinceCompaction = 0;
  private nowMs = 0;
  private nextHandle = 1;
  /** Callbacks actually run so far: the figure the benchmark reports as events. */
  executed = 0;

  get now(): SimTimeMs {
    return simTime(this.nowMs);
  }

  /** Scheduled callbacks not yet run (cancelled ones included until they surface). */
  get pending(): number {
    return this.queue.size;
  }

  /**
   * When the next callback is due, or undefined when there is nothing left to do. Cancelled
   * callbacks at the head are dropped first: they are not on the agenda, so they neither keep
   * a run going nor make it reach its time cap.
   */
  nextAt(): SimTimeMs | undefined {
    const { queue, cancelled } = this;
    while (cancelled.size > 0 && queue.size > 0 && cancelled.delete(queue.peekItem()!.handle)) queue.popItem();
    const at = queue.peekAt();
    return at === undefined ? undefined : simTime(at);
  }

  /**
   * Runs `run(arg)` at now + delayMs (delays round up to whole ms). Returns a handle for cancel().
   * `dropped(arg)` runs instead when the owner has crashed by then (e.g. to record a lost message).
   */
  schedule<A = undefined>(
    delayMs: number,
    owner: Owner | null,
    run: (arg: A) => void,
    dropped?: (arg: A) => void,
    arg?: A,
  ): number {
    // Infinity never reaches the agenda: a timer that never fires is not scheduled (processClock.ts).
    if (!(delayMs >= 0 && delayMs < Infinity)) badDelay(delayMs);
    const handle = this.nextHandle++;
    const task: Task = { owner, run, dropped, arg, handle };
    this.queue.push(this.nowMs + Math.ceil(delayMs), task);
    return handle;
  }

  /**
   * Cancels a scheduled callback. It stays on the agenda, skipped when it comes up, until
   * cancelled ones outnumber the rest: then they are dropped all at once, so a long run that
   * cancels much (a lease's expiry watch per job) keeps a small agenda.
   */
  cancel(handle: number): void {
    const cancelled = this.cancelled;
    cancelled.add(handle);
    // Counted per call, not by the set's size: a compaction costs one pass over the agenda and
    // comes at most once per half an agenda's worth of cancels, whatever the set holds.
    if (++this.cancelsSinceCompaction >= Math.max(COMPACT_AT, this.queue.size >> 1)) {
      this.cancelsSinceCompaction = 0;
      // Handles not on the agenda (frozen with a paused owner) stay in the set for thaw().
      this.queue.removeWhere((task) => cancelled.delete(task.handle));
    }
  }

  /** Handles the next due callback. Returns false when the agenda is empty. */
  step(): boolean {
    const queue = this.queue;
    for (;;) {
      const at = queue.peekAt();
      if (at === undefined) return false;
      const task = queue.popItem()!;
      if (this.cancelled.size > 0 && this.cancelled.delete(task.handle)) continue;
      // This runs for every event of every run: one comparison, the message built only on failure.
      if (at < this.nowMs) timeWentBack(this.nowMs, at);
      this.nowMs = at;
      const owner = task.owner;
      const disposition = owner === null ? 'run' : owner.disposition();
      if (disposition === 'drop') {
        if (task.dropped) (task.dropped as (arg: unknown) => void)(task.arg);
        continue;
      }
      if (disposition === 'freeze') {
        owner!.freeze(task);
        continue;
      }
      this.executed++;
      (task.run as (arg: unknown) => void)(task.arg);
      return true;
    }
  }

  /**
   * Puts what came due during a pause back on the agenda, due now, in the order it came due:
   * timers keep their deadlines on the monotonic clock, so every one that passed during the
   * pause fires at once when the process runs again (work in progress is the process's own
   * affair: see `Process.compute`).
   */
  thaw(owner: Owner, tasks: readonly FrozenTask[]): void {
    for (const frozen of tasks) {
      if (this.cancelled.delete(frozen.handle)) continue;
      const task: Task = { ...frozen, owner };
      this.queue.push(this.nowMs, task);
    }
  }
}
