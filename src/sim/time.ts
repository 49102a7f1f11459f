/**
 * Two time bases, two branded types. `SimTimeMs` is the kernel's truth: virtual milliseconds
 * since the run began. `LocalClockMs` is what one process's clock reads, which drifts and
 * jumps. Mixing them up is the bug the clock lessons teach, so the types keep them apart.
 */
export type SimTimeMs = number & { readonly __brand: 'SimTimeMs' };
export type LocalClockMs = number & { readonly __brand: 'LocalClockMs' };

export const simTime = (ms: number): SimTimeMs => ms as SimTimeMs;
export const localTime = (ms: number): LocalClockMs => ms as LocalClockMs;

/** Formats a virtual time for people: `850 ms`, `11 s`, `17.002 s`. */
export function formatMs(ms: number): string {
  if (Math.abs(ms) < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(3))} s`;
}
