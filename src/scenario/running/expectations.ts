import type { Verdict } from '../../check/verdict';
import type { Scenario } from '../schema/schema';

/**
 * Compares a run's verdicts with what the scenario says it shows (`expect`). Returns one
 * sentence per expectation that did not come true; an empty list means the lesson works.
 * `invariant: all` asks every verdict that has no entry of its own to hold.
 */
export function unmetExpectations(scenario: Scenario, verdicts: readonly Verdict[]): string[] {
  const listed = new Set<string>(scenario.expect.map((e) => e.invariant));
  return scenario.expect.flatMap((expectation) => {
    if (expectation.invariant === 'all') {
      return verdicts
        .filter((v) => !v.holds && !listed.has(v.invariant))
        .map(
          (v) => `expected every invariant to hold (invariant: all), but ${v.invariant} was violated at ${v.atMs} ms`,
        );
    }
    const verdict = verdicts.find((v) => v.invariant === expectation.invariant);
    if (!verdict) return [`no checker reported on '${expectation.invariant}'`];
    const outcome = verdict.holds ? 'holds' : 'violated';
    if (outcome === expectation.outcome) return [];
    return [
      `expected ${expectation.invariant} to be ${expectation.outcome}, but it ${verdict.holds ? 'held' : `was violated at ${verdict.atMs} ms`}`,
    ];
  });
}

/**
 * Invariants the quiet run breaks that `expect` says nothing about, when every entry it has is
 * `holds` (the scenario presents a run that works) and it does not say `invariant: all`. Such a
 * run may be teaching a break the author never wrote down, or hiding a bug; `lessons:check`
 * warns about each, so the author lists it as `violated` or promises `all`.
 */
export function unlistedBreaks(scenario: Scenario, verdicts: readonly Verdict[]): Verdict[] {
  const { expect } = scenario;
  if (!expect.length || expect.some((e) => e.outcome === 'violated' || e.invariant === 'all')) return [];
  const listed = new Set<string>(expect.map((e) => e.invariant));
  return verdicts.filter((v) => !v.holds && !listed.has(v.invariant));
}
