import { describe, expect, it } from 'vitest';
import { leaseKeysByLane, subRow } from './keyRows';
import type { Interval } from './modelTypes';

const lease = (lane: string, lockKey: string, startMs: number): Interval => ({
  key: `lease:${lane}:${lockKey}:${startMs}`,
  kind: 'lease',
  lane,
  owner: 'A',
  lockKey,
  startMs,
  endMs: startMs + 10,
  startId: startMs,
  endId: null,
  endReason: null,
});

describe('key rows', () => {
  it('gives a node that leases two keys a row per key, in the order the keys first appear', () => {
    const rows = leaseKeysByLane([lease('r1', 'y', 0), lease('r1', 'x', 5), lease('r1', 'y', 20), lease('r2', 'x', 0)]);
    expect(rows.get('r1')).toEqual(['y', 'x']);
    // One key: the lane keeps its single bar.
    expect(rows.has('r2')).toBe(false);
  });

  it('ignores beliefs and projections: only Redis leases are split', () => {
    const belief: Interval = { ...lease('A', 'x', 0), kind: 'belief' };
    expect(leaseKeysByLane([belief, { ...belief, lockKey: 'y' }]).size).toBe(0);
  });

  it('splits a band into equal rows with gaps, never overlapping, and caps the number of rows', () => {
    expect(subRow([6, 46], 0, 2)).toEqual([6, 25]);
    expect(subRow([6, 46], 1, 2)).toEqual([27, 46]);
    const six = [0, 1, 2, 3, 4, 5].map((i) => subRow([0, 46], i, 6));
    // Keys past the fourth share the last row.
    expect(six[5]).toEqual(six[3]);
    for (let i = 1; i < 4; i++) expect(six[i]![0]).toBeGreaterThan(six[i - 1]![1]);
  });
});
