import { describe, expect, it } from 'vitest';
import { choose, combinationAt, nextCombination } from './combinations';
import { exhaustiveScheduleAt, faultChoices, scheduleCount, type ExhaustiveBounds } from './exhaustive';
import { exhaustive, type ExhaustiveRun } from './exhaustiveSearch';
import type { FaultAction, FaultSpace } from './faults';
import type { Verdict } from './verdict';

const space: FaultSpace = {
  kinds: ['pause', 'crash'],
  processes: ['A', 'B', 'r1'],
  failoverTargets: [],
  links: [],
  windowMs: 1000,
  maxFaults: 2,
};
const verdict = (holds: boolean): Verdict => ({
  invariant: 'single-writer',
  holds,
  atMs: holds ? null : 1,
  eventIds: [],
  explanation: '',
  violations: holds ? 0 : 1,
});
const judged =
  (breaks: (actions: readonly FaultAction[]) => boolean) =>
  (_seed: number, actions: readonly FaultAction[]): ExhaustiveRun => ({
    verdicts: [verdict(!breaks(actions))],
    lastActiveMs: new Map(space.processes.map((p) => [p, Infinity])),
  });

const bounds: ExhaustiveBounds = {
  maxFaults: 2,
  gridMs: 100,
  horizonMs: 1000,
  kinds: ['pause', 'crash'],
  pauseMs: [500, 2000],
  outageMs: [1000],
  jumpMs: [],
};
const options = { invariant: 'single-writer', baseSeed: 7, space, bounds };

describe('k-subsets by rank', () => {
  it('unranks every subset once, in lexicographic order, as the in-place walk visits them', () => {
    for (const [n, k] of [
      [5, 1],
      [5, 2],
      [6, 3],
      [4, 4],
    ] as const) {
      const walked: number[][] = [];
      const picked = combinationAt(n, k, 0);
      do walked.push([...picked]);
      while (nextCombination(picked, n));
      expect(walked).toHaveLength(choose(n, k));
      expect(walked.map((_, rank) => combinationAt(n, k, rank))).toEqual(walked);
      expect(new Set(walked.map((c) => c.join()))).toHaveProperty('size', choose(n, k));
    }
    expect(choose(4000, 2)).toBe(7_998_000);
    expect(() => combinationAt(4, 2, 6)).toThrow(/No 2-subset of 4 items at rank 6 \(there are 6\)/);
  });
});

describe('the schedules within the bounds', () => {
  it('has every fault of each kind at every grid point, for every target and length, in time order', () => {
    const choices = faultChoices(space, bounds);
    // 10 grid points × 3 targets × (2 pause lengths + 1 outage length).
    expect(choices).toHaveLength(10 * 3 * 3);
    const times = choices.map((f) => f.actions[0]!.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(choices.slice(0, 3).map((f) => f.actions)).toEqual([
      [{ at: 0, do: 'pause', target: 'A', forMs: 500 }],
      [{ at: 0, do: 'pause', target: 'A', forMs: 2000 }],
      [{ at: 0, do: 'pause', target: 'B', forMs: 500 }],
    ]);
    expect(choices.find((f) => f.kind === 'crash')!.actions).toEqual([
      { at: 0, do: 'crash', target: 'A' },
      { at: 1000, do: 'restart', target: 'A' },
    ]);
  });

  it('counts the scenario as written, every single fault and every pair', () => {
    expect(scheduleCount(90, 2)).toBe(1 + 90 + 4005);
    const choices = faultChoices(space, bounds);
    expect(exhaustiveScheduleAt(choices, 2, 0)).toEqual([]);
    expect(exhaustiveScheduleAt(choices, 2, 1)).toEqual([choices[0]]);
    expect(exhaustiveScheduleAt(choices, 2, 91)).toEqual([choices[0], choices[1]]);
  });
});

describe('an exhaustive search (with a stand-in world)', () => {
  it('finds the earliest single fault that breaks it, before any pair', () => {
    // The "bug": a pause of B of 2 s or more, started at 300 ms or later.
    const result = exhaustive({
      ...options,
      run: judged((as) => as.some((a) => a.do === 'pause' && a.target === 'B' && a.forMs >= 2000 && a.at >= 300)),
    });
    expect(result).toMatchObject({
      found: true,
      complete: false,
      seed: 7,
      actions: [{ at: 300, do: 'pause', target: 'B', forMs: 2000 }],
    });
  });

  it('finds a break that needs two faults with exactly two, having run every single fault first', () => {
    const needsBoth = (as: readonly FaultAction[]) =>
      as.some((a) => a.do === 'crash' && a.target === 'r1') && as.some((a) => a.do === 'pause' && a.target === 'A');
    const result = exhaustive({ ...options, run: judged(needsBoth) });
    expect(result.found).toBe(true);
    expect(result.faults.map((f) => f.kind).sort()).toEqual(['crash', 'pause']);
    expect(result.progress.ran).toBeGreaterThan(1 + 90);
    expect(result.actions[0]).toMatchObject({ at: 0 });
  });

  it('claims no break within the bounds only after every schedule, and says how many', () => {
    const result = exhaustive({ ...options, run: judged(() => false) });
    expect(result).toMatchObject({
      found: false,
      complete: true,
      progress: { done: 4096, total: 4096, ran: 4096, byQuiet: 0 },
    });
  });

  it('stops at its budget and does not claim what it did not cover', () => {
    const result = exhaustive({ ...options, run: judged(() => false), maxRuns: 500 });
    expect(result).toMatchObject({ found: false, complete: false, progress: { done: 500, total: 4096, ran: 500 } });
  });
});
