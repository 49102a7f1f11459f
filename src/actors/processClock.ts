import type { Process } from './process';

/**
 * XState's clock has just two methods, and both go to the kernel, in the process's local
 * time, so delays are virtual and freeze while the process is paused. An infinite delay (no
 * watchdog, a wedged worker) is simply never scheduled.
 */
export class ProcessClock {
  constructor(private readonly process: Process) {}

  // The names are XState's Clock interface; nothing here touches a real timer.
  setTimeout(fn: () => void, ms: number): number {
    return Number.isFinite(ms) ? this.process.setTimer(ms, fn) : -1;
  }

  clearTimeout(handle: unknown): void {
    if ((handle as number) >= 0) this.process.sim.kernel.cancel(handle as number);
  }
}
