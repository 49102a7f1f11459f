import type { Process } from './process';

/**
 * XState's clock has just two methods, and both go to the kernel, in the process's local
 * time, so delays are virtual and freeze while the process is paused. An infinite delay (no
 * watchdog, a wedged worker) is simply never scheduled.
 */
export class ProcessClock {
  /** Null once released: the run is over and its machine must not hold on to it. */
  private process: Process | null;

  constructor(process: Process) {
    this.process = process;
  }

  // The names are XState's Clock interface; nothing here touches a real timer.
  setTimeout(fn: () => void, ms: number): number {
    return this.process !== null && Number.isFinite(ms) ? this.process.setTimer(ms, fn) : -1;
  }

  clearTimeout(handle: unknown): void {
    if (this.process !== null && (handle as number) >= 0) this.process.sim.kernel.cancel(handle as number);
  }

  /** Lets go of the process (see ClientShell.detachMachines). */
  release(): void {
    this.process = null;
  }
}
