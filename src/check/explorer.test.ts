import { describe, expect, it } from 'vitest';
import { explore, scheduleAt, searchBatch, type FaultAction, type FaultSpace } from './explorer';
import { faultActionsInOrder } from './faults';
import { ddmin } from './shrink';
import type { Verdict } from './verdict';

const verdict = (holds: boolean): Verdict => ({
  invariant: 'single-writer',
  holds,
  atMs: holds ? null : 1,
  eventIds: [],
  explanation: '',
  violations: holds ? 0 : 1,
});

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
  const run = (_seed: number, actions: readonly FaultAction[]) => [
    verdict(!actions.some((a) => a.do === 'pause' && a.target === 'A' && a.forMs > 3000)),
  ];
  const space: FaultSpace = {
    kinds: ['pause', 'crash', 'partition', 'clock-jump'],
    processes: ['A', 'B', 'r1'],
    failoverTargets: [],
    links: [],
    windowMs: 10_000,
    maxFaults: 3,
  };
  const options = { invariant: 'single-writer', run, space, baseSeed: 7, explorerSeed: 1, runs: 200 };

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
    expect(result).toMatchObject({
      found: false,
      actions: [],
      runs: 20,
      summary: { runs: 20, kinds: space.kinds, maxFaults: 3 },
    });
    // Index 0 is the scenario's own seed; every even index from 2 draws another (2, 4, ... 18).
    expect(result.summary.seeds).toBe(10);
  });

  it('answers with no actions when the scenario breaks as written', () => {
    expect(explore({ ...options, run: () => [verdict(false)] })).toMatchObject({
      found: true,
      seed: 7,
      actions: [],
      runs: 2,
    });
  });
});

describe('the search split into batches', () => {
  // The "bug" needs a crash of B and then a pause of A: rare enough that most schedules pass.
  const run = (_seed: number, actions: readonly FaultAction[]) => {
    const crash = actions.findIndex((a) => a.do === 'crash' && a.target === 'B');
    return [verdict(!(crash >= 0 && actions.slice(crash).some((a) => a.do === 'pause' && a.target === 'A')))];
  };
  const space: FaultSpace = {
    kinds: ['pause', 'crash', 'restart', 'partition', 'clock-jump'],
    processes: ['A', 'B', 'r1'],
    failoverTargets: [],
    links: [],
    windowMs: 10_000,
    maxFaults: 3,
  };
  const options = { invariant: 'single-writer', run, space, baseSeed: 7, explorerSeed: 3 };

  it('computes schedule i from (explorerSeed, i) alone, whatever was computed before', () => {
    const later = scheduleAt(options, 57);
    for (let i = 0; i < 57; i++) scheduleAt(options, i);
    expect(scheduleAt(options, 57)).toEqual(later);
    expect(scheduleAt(options, 58)).not.toEqual(later);
    expect(scheduleAt({ ...options, explorerSeed: 4 }, 57)).not.toEqual(later);
    expect(scheduleAt(options, 0)).toEqual({ seed: 7, faults: [] });
  });

  it('finds the same lowest failing index however the range is cut', () => {
    const whole = searchBatch(options, 0, 300);
    expect(whole.failing).not.toBeNull();
    for (const cut of [1, 2, 17, whole.failing!, whole.failing! + 1, 299]) {
      const first = searchBatch(options, 0, cut);
      const second = searchBatch(options, cut, 300);
      expect(first.failing ?? second.failing).toBe(whole.failing);
    }
  });

  it('shrinks whole faults: a crash keeps its restart', () => {
    const result = explore({ ...options, runs: 300 });
    expect(result.found).toBe(true);
    expect(result.faults).toHaveLength(2);
    expect(['crash', 'restart']).toContain(result.faults[0]!.kind);
    expect(result.faults[1]!.kind).toBe('pause');
    expect(result.actions).toEqual(faultActionsInOrder(result.faults));
    expect(result.actions.filter((a) => a.do === 'restart')).toHaveLength(1);
  });
});
