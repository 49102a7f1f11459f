import { EventQueue } from './eventQueue';
import { simTime, type SimTimeMs } from './time';

/** What a scheduled callback belongs to, so a paused process can freeze it and a crash drop it. */
export interface Owner {
  readonly id: string;
  /** 'run': handle it now; 'freeze': hold it until the owner resumes; 'drop': discard it. */
  disposition(): 'run' | 'freeze' | 'drop';
  /** Called with a callback that arrived while the owner was paused. */
  freeze(task: FrozenTask): void;
  /** When the current pause began (only asked while frozen). */
  pausedAtMs(): number;
}

/**
 * A timer keeps the part of its delay that had not yet elapsed when its owner froze; a message
 * that arrives during a pause is simply handled at resume (remainingMs 0). `run` and `dropped`
 * take `arg`, the value they were scheduled with.
 */
export interface FrozenTask {
  remainingMs: number;
  run: (arg: never) => void;
  dropped?: ((arg: never) => void) | undefined;
  arg: unknown;
  handle: number;
}

export type TaskKind = 'timer' | 'message' | 'system';

/**
 * One scheduled callback. A callback takes one argument so hot callers (the network, process
 * timers) can schedule a shared function with a small record instead of allocating a closure
 * per event.
 */
interface Task extends FrozenTask {
  owner: Owner | null;
  kind: TaskKind;
}

/**
 * The deterministic heart of a run: a virtual clock and an agenda ordered by (time, seq).
 * Nothing here knows about Redis or locks. It never reads the wall clock and never sleeps:
 * `step()` jumps straight to the next scheduled moment.
 */
export class Kernel {
  private readonly queue = new EventQueue<Task>();
  private readonly cancelled = new Set<number>();
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

  /** When the next callback is due, or undefined when there is nothing left to do. */
  nextAt(): number | undefined {
    return this.queue.peekAt();
  }

  /**
   * Runs `run(arg)` at now + delayMs (delays round up to whole ms). Returns a handle for cancel().
   * `dropped(arg)` runs instead when the owner has crashed by then (e.g. to record a lost message).
   */
  schedule<A = undefined>(
    delayMs: number,
    owner: Owner | null,
    kind: TaskKind,
    run: (arg: A) => void,
    dropped?: (arg: A) => void,
    arg?: A,
  ): number {
    if (!(delayMs >= 0)) throw new RangeError(`Cannot schedule ${delayMs} ms into the past.`);
    const handle = this.nextHandle++;
    const task: Task = { owner, kind, run, dropped, arg, handle, remainingMs: 0 };
    this.queue.push(this.nowMs + Math.ceil(delayMs), task);
    return handle;
  }

  cancel(handle: number): void {
    this.cancelled.add(handle);
  }

  /** Handles the next due callback. Returns false when the agenda is empty. */
  step(): boolean {
    const queue = this.queue;
    for (;;) {
      const at = queue.peekAt();
      if (at === undefined) return false;
      const task = queue.popItem()!;
      if (this.cancelled.size > 0 && this.cancelled.delete(task.handle)) continue;
      this.nowMs = at;
      const owner = task.owner;
      const disposition = owner === null ? 'run' : owner.disposition();
      if (disposition === 'drop') {
        if (task.dropped) (task.dropped as (arg: unknown) => void)(task.arg);
        continue;
      }
      if (disposition === 'freeze') {
        task.remainingMs = task.kind === 'timer' ? at - owner!.pausedAtMs() : 0;
        owner!.freeze(task);
        continue;
      }
      this.executed++;
      (task.run as (arg: unknown) => void)(task.arg);
      return true;
    }
  }

  /** Puts frozen work back on the agenda after a resume, keeping each timer's remaining time. */
  thaw(owner: Owner, tasks: readonly FrozenTask[]): void {
    for (const frozen of tasks) {
      if (this.cancelled.delete(frozen.handle)) continue;
      const task: Task = { ...frozen, owner, kind: 'timer' };
      this.queue.push(this.nowMs + frozen.remainingMs, task);
    }
  }
}
