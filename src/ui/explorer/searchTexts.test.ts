import { describe, expect, it } from 'vitest';
import { nothingFound, searchSummary } from '../../check/explorer';
import type { ExhaustiveBounds } from '../../check/exhaustive';
import type { ExhaustiveResult } from '../../check/exhaustiveSearch';
import { simTime } from '../../sim/time';
import { exhaustiveText, notFoundText } from './searchTexts';

const space = { kinds: ['pause', 'crash'] as const, maxFaults: 3 };

describe('what Break it says when it found nothing', () => {
  it('says what it searched, and no more, when every run ended by itself', () => {
    expect(notFoundText(nothingFound({ baseSeed: 1 }, searchSummary(space, 2000)), 'single writer')).toBe(
      "No run broke single writer in 2,000 runs. Searched: pauses, crashes, up to 3 faults a run; the scenario's seed and 999 others. A search can miss a bug: a bigger budget or another invariant may still find one.",
    );
  });

  it('counts the runs a budget cut short apart, and says when all of them were', () => {
    expect(notFoundText(nothingFound({ baseSeed: 1 }, searchSummary(space, 2000, 37)), 'progress')).toMatch(
      /^No run broke progress in 2,000 runs\. 37 of them were cut short by a budget \(50,000 events, or the scripts' instruction limit\) and judged only on what they reached: a break after that point would not be seen\. Searched: /,
    );
    expect(notFoundText(nothingFound({ baseSeed: 1 }, searchSummary(space, 2000, 2000)), 'progress')).toMatch(
      /^No run broke progress in 2,000 runs\. All 2,000 runs were cut short by a budget/,
    );
  });
});

describe('what the exhaustive search says', () => {
  const bounds: ExhaustiveBounds = {
    maxFaults: 2,
    gridMs: 100,
    horizonMs: 6100,
    kinds: ['pause', 'crash', 'clock-jump'],
    pauseMs: [500, 1000, 20_000],
    outageMs: [1000, 5000],
    jumpMs: [10_000, -10_000],
  };
  const result = (over: Partial<ExhaustiveResult>): ExhaustiveResult => ({
    found: false,
    complete: true,
    faults: [],
    actions: [],
    seed: 40,
    index: null,
    verdict: null,
    progress: { done: 18_240, total: 18_240, ran: 9_140, byQuiet: 9_100, cut: 0 },
    bounds,
    targets: ['A', 'B', 'r1'],
    ...over,
  });

  it('states a bounded claim, with the bounds named, when every schedule was covered', () => {
    expect(exhaustiveText(result({}), 'single writer')).toBe(
      'No break of single writer exists with up to 2 faults (pauses of 0.5–20 s, crashes with a restart after 1–5 s, clock jumps of ±10 s) at 100 ms steps over the first 6.1 s, on A, B and r1: 18,240 schedules, 9,140 run, 9,100 covered because the fault hit a process with nothing left to do. Other faults, lengths or times than these were not tried.',
    );
  });

  it('makes no claim about what a budget left untried', () => {
    const text = exhaustiveText(
      result({ complete: false, progress: { done: 500, total: 18_240, ran: 480, byQuiet: 20, cut: 0 } }),
      'single writer',
    );
    expect(text).toMatch(/^No break of single writer in the first 500 of 18,240 schedules of up to 2 faults/);
    expect(text).toMatch(/the other 17,740 were not tried, so this is no claim about them\.$/);
    expect(text).not.toMatch(/exists/);
  });

  it('says a break found has the fewest faults there are', () => {
    const pause = {
      kind: 'pause' as const,
      actions: [{ at: simTime(100), do: 'pause' as const, target: 'A', forMs: 5000 }],
    };
    expect(
      exhaustiveText(
        result({
          found: true,
          complete: false,
          faults: [pause],
          progress: { done: 69, total: 18_240, ran: 69, byQuiet: 0, cut: 0 },
        }),
        'single writer',
      ),
    ).toBe(
      'Found after 69 of 18,240 schedules: 1 fault breaks single writer. No schedule with fewer faults breaks it: every one was tried.',
    );
  });
});
