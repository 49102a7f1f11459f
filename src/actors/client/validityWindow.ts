import { monotonicTime, type MonotonicMs } from '../../sim/time';
import { monotonicNow } from '../process/monotonicClock';
import type { Process } from '../process/process';

/**
 * Redlock's validity, as a careful client keeps it: a key taken with `validityMs` of validity
 * (TTL − elapsed − drift, the elapsed time measured from the try's start) may be used for that
 * long from the moment the try succeeded, i.e. until the try's start plus TTL − drift, as the
 * algorithm and node-redlock's `expiration` have it; the earliest of the keys held wins, and a
 * timer on the process's monotonic clock says when that moment passes. A wall-clock jump moves
 * none of it; a pause does not stop it, so a timer that fell due during the pause fires at the resume.
 */
export class ValidityWindow {
  /** When the lock stops being valid, on the monotonic clock; null when nothing is held under a validity. */
  private until: MonotonicMs | null = null;
  private timer: number | null = null;

  constructor(
    private readonly process: Process,
    /** Called when the window has run out while still open. */
    private readonly onLapsed: () => void,
  ) {}

  /** True once the window has run out. */
  over(): boolean {
    return this.until !== null && monotonicNow(this.process) >= this.until;
  }

  /** Opens (or shortens) the window for a key taken just now with `validityMs` of validity. */
  open(validityMs: number): void {
    const until = monotonicTime(monotonicNow(this.process) + validityMs);
    if (this.until !== null && this.until <= until) return;
    this.until = until;
    this.cancelTimer();
    this.timer = this.process.setTimer(Math.max(0, until - monotonicNow(this.process)), this.ended);
  }

  /** The hold is over (released, lost, crashed): no validity left to watch. */
  close(): void {
    this.cancelTimer();
    this.until = null;
  }

  private readonly ended = (): void => {
    this.timer = null;
    if (this.over()) this.onLapsed();
  };

  private cancelTimer(): void {
    if (this.timer !== null) this.process.sim.kernel.cancel(this.timer);
    this.timer = null;
  }
}
