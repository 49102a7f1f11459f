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
 * that arrives during a pause is simply handled at resume (remainingMs 0).
 */
export interface FrozenTask {
  remainingMs: number;
  run: () => void;
  dropped?: (() => void) | undefined;
  handle: number;
}

export type TaskKind = 'timer' | 'message' | 'system';

interface Task {
  owner: Owner | null;
  kind: TaskKind;
  run: () => void;
  /** Runs instead of `run` when the owner has crashed, so a lost delivery can be recorded. */
  dropped: (() => void) | undefined;
  /** For timers: when the owner started waiting, to compute what is left after a pause. */
  handle: number;
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
    return this.queue.peek()?.at;
  }

  /**
   * Runs `run` at now + delayMs (delays round up to whole ms). Returns a handle for cancel().
   * `dropped` runs instead when the owner has crashed by then (e.g. to record a lost message).
   */
  schedule(delayMs: number, owner: Owner | null, kind: TaskKind, run: () => void, dropped?: () => void): number {
    if (!(delayMs >= 0)) throw new RangeError(`Cannot schedule ${delayMs} ms into the past.`);
    const handle = this.nextHandle++;
    this.queue.push(this.nowMs + Math.ceil(delayMs), { owner, kind, run, dropped, handle });
    return handle;
  }

  cancel(handle: number): void {
    this.cancelled.add(handle);
  }

  /** Handles the next due callback. Returns false when the agenda is empty. */
  step(): boolean {
    for (;;) {
      const next = this.queue.pop();
      if (!next) return false;
      const task = next.item;
      if (this.cancelled.delete(task.handle)) continue;
      this.nowMs = next.at;
      const disposition = task.owner?.disposition() ?? 'run';
      if (disposition === 'drop') {
        task.dropped?.();
        continue;
      }
      if (disposition === 'freeze') {
        const remainingMs = task.kind === 'timer' ? next.at - task.owner!.pausedAtMs() : 0;
        task.owner!.freeze({ remainingMs, run: task.run, dropped: task.dropped, handle: task.handle });
        continue;
      }
      this.executed++;
      task.run();
      return true;
    }
  }

  /** Puts frozen work back on the agenda after a resume, keeping each timer's remaining time. */
  thaw(owner: Owner, tasks: readonly FrozenTask[]): void {
    for (const task of tasks) {
      if (this.cancelled.delete(task.handle)) continue;
      this.queue.push(this.nowMs + task.remainingMs, { owner, kind: 'timer', run: task.run, dropped: task.dropped, handle: task.handle });
    }
  }
}
