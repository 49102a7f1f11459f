import type { Interval } from './modelTypes';

/**
 * A Redis node can hold leases on several keys at once (lesson 10's two locks). Drawn in one
 * bar they would hide each other, so each key gets its own row in the node's lane.
 */

/** Most rows a lane is split into; further keys share the last row (past four, rows get unreadable). */
export const MAX_KEY_ROWS = 4;

/** The lock keys each lane holds leases on, in the order they first appear; only lanes with two or more. */
export function leaseKeysByLane(intervals: readonly Interval[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const i of intervals) {
    if (i.kind !== 'lease' || i.lockKey === null) continue;
    const list = keys.get(i.lane) ?? [];
    if (!list.includes(i.lockKey)) list.push(i.lockKey);
    keys.set(i.lane, list);
  }
  for (const [lane, list] of keys) if (list.length < 2) keys.delete(lane);
  return keys;
}

/**
 * Row `index` of `count` equal rows splitting the band [y0, y1], with `gapPx` between rows.
 * @example subRow([6, 46], 1, 2) // [27, 46]
 */
export function subRow(band: readonly [number, number], index: number, count: number, gapPx = 2): [number, number] {
  const rows = Math.max(1, Math.min(count, MAX_KEY_ROWS));
  const row = Math.max(0, Math.min(index, rows - 1));
  const heightPx = (band[1] - band[0] - gapPx * (rows - 1)) / rows;
  const top = band[0] + row * (heightPx + gapPx);
  return [top, top + heightPx];
}
