import { z } from 'zod';

/**
 * A duration as authors write it: `850ms`, `10s`, `1.5s`, `2m`, or a bare number of ms.
 * Parsed to integer milliseconds, because the kernel's clock ticks in whole ms.
 */
export const durationMs = z.union([z.number(), z.string()]).transform((raw, ctx): number => {
  const ms = parseDurationMs(raw);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `'${raw}' is not a duration (write it like 850ms, 10s, 1.5s or 2m)` });
    return z.NEVER;
  }
  return ms;
});

export const nonNegativeDurationMs = durationMs.refine((ms) => ms >= 0, { message: 'must not be negative' });
export const positiveDurationMs = durationMs.refine((ms) => ms > 0, { message: 'must be greater than zero' });

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

export function parseDurationMs(raw: number | string): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.round(raw) : undefined;
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m)\s*$/.exec(raw);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}
