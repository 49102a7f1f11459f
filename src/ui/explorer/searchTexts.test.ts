import { describe, expect, it } from 'vitest';
import { nothingFound, searchSummary } from '../../check/explorer';
import { notFoundText } from './searchTexts';

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
    expect(notFoundText(nothingFound({ baseSeed: 1 }, searchSummary(space, 2000, 2000)), 'progress')).toMatch(/^No run broke progress in 2,000 runs\. All 2,000 runs were cut short by a budget/);
  });
});
