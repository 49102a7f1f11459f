import { monotonicTime, type MonotonicMs } from '../../sim/time';
import type { Process } from './process';

/**
 * What a process's monotonic clock reads now (CLOCK_MONOTONIC, `performance.now()`,
 * `System.nanoTime()`): it runs at the process's own rate, drift included, but a wall-clock
 * jump (an operator, a time-sync step) does not move it, and it keeps counting while the process
 * is stopped. This is the clock a careful client measures elapsed time on (Redlock's validity),
 * where `Process.localNow()` is the wall clock that jumps. It reads from an origin of its own,
 * so only differences between two readings mean anything.
 */
export function monotonicNow(process: Process): MonotonicMs {
  const t = process.sim.now;
  return monotonicTime(t + Math.floor((t * process.driftPpm) / 1e6));
}
