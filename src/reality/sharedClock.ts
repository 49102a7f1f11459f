/**
 * The machine's monotonic clock (CLOCK_MONOTONIC, through `process.hrtime`), in milliseconds:
 * the same clock in every process, so a child's report and the harness's own observations are
 * timed on one line. `performance.timeOrigin + performance.now()` is not: each process's origin
 * is the wall clock when it started, and a harness that started seconds before its children
 * disagreed with them by several milliseconds (a release stamped after Redis had carried it
 * out, and two holders where there was one).
 */
export function sharedNowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The moment `sharedMs` on this process's `performance.now()` line. */
export function toLocalMs(sharedMs: number): number {
  return sharedMs - (sharedNowMs() - performance.now());
}
