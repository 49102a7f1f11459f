/**
 * Two time bases, two branded types. `SimTimeMs` is the kernel's truth: virtual milliseconds
 * since the run began. `LocalClockMs` is what one process's clock reads, which drifts and
 * jumps. Mixing them up is the bug the clock lessons teach, so the types keep them apart: a
 * value crosses from one to the other only through a process's conversions (`Process.localNow`,
 * `Process.simTimeWhenLocalPasses`), never by arithmetic that forgets the drift.
 *
 * `UnixMs` is the same local clock as a Redis node reports it (milliseconds since 1970: what
 * `PEXPIREAT` takes and `TIME` answers); `src/actors/process/unixClock.ts` converts.
 */
export type SimTimeMs = number & { readonly __brand: 'SimTimeMs' };
export type LocalClockMs = number & { readonly __brand: 'LocalClockMs' };
export type UnixMs = number & { readonly __brand: 'UnixMs' };
/** A process's monotonic clock (`src/actors/process/process/monotonicClock.ts`): drifts with the process, never jumps. */
export type MonotonicMs = number & { readonly __brand: 'MonotonicMs' };

export const simTime = (ms: number): SimTimeMs => ms as SimTimeMs;
export const localTime = (ms: number): LocalClockMs => ms as LocalClockMs;
export const unixTime = (ms: number): UnixMs => ms as UnixMs;
export const monotonicTime = (ms: number): MonotonicMs => ms as MonotonicMs;

/** Formats a virtual time for people: `850 ms`, `11 s`, `17.002 s`. */
export function formatMs(ms: number): string {
  if (Math.abs(ms) < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(3))} s`;
}
