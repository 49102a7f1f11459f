import { describe, expect, it } from 'vitest';
import { explore, type FaultAction } from './explorer';
import { ddmin } from './shrink';
import type { Verdict } from './verdict';

const verdict = (holds: boolean): Verdict => ({ invariant: 'single-writer', holds, atMs: holds ? null : 1, eventIds: [], explanation: '', violations: holds ? 0 : 1 });

describe('ddmin', () => {
  it('keeps only the items the failure needs', () => {
    const fails = (xs: readonly number[]) => xs.includes(3) && xs.includes(7);
    expect(ddmin([1, 2, 3, 4, 5, 6, 7, 8], fails)).toEqual([3, 7]);
  });

  it('returns nothing when the failure needs nothing', () => {
    expect(ddmin([1, 2], () => true)).toEqual([]);
  });
});

describe('explore (with a stand-in world)', () => {
  // The "bug": any pause of A longer than 3 s breaks the invariant.
  const run = (_seed: number, actions: readonly FaultAction[]) => [verdict(!actions.some((a) => a.do === 'pause' && a.target === 'A' && a.forMs > 3000))];
  const options = { invariant: 'single-writer', run, targets: ['A', 'B', 'r1'], windowMs: 10_000, baseSeed: 7 };

  it('finds a breaking schedule and shrinks it to the one fault that matters, rounded', () => {
    const result = explore(options);
    expect(result.found).toBe(true);
    expect(result.seed).toBe(7);
    expect(result.actions).toHaveLength(1);
    const [pause] = result.actions;
    expect(pause).toMatchObject({ do: 'pause', target: 'A' });
    // Halving stops at the last length that still breaks it: more than 3 s, less than 6.5 s.
    expect((pause as { forMs: number }).forMs).toBeGreaterThan(3000);
    expect((pause as { forMs: number }).forMs).toBeLessThanOrEqual(6500);
    expect(pause!.at % 1000).toBe(0);
  });

  it('is deterministic for a given explorer seed', () => {
    expect(explore({ ...options, explorerSeed: 42 })).toEqual(explore({ ...options, explorerSeed: 42 }));
  });

  it('reports nothing found (within its budget) when no schedule breaks the invariant', () => {
    const result = explore({ ...options, run: () => [verdict(true)], runs: 20 });
    expect(result).toMatchObject({ found: false, actions: [], runs: 21 });
  });

  it('answers with no actions when the scenario breaks as written', () => {
    expect(explore({ ...options, run: () => [verdict(false)] })).toMatchObject({ found: true, seed: 7, actions: [], runs: 2 });
  });
});
