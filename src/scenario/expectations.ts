import type { Verdict } from '../check/verdict';
import type { Scenario } from './schema';

/**
 * Compares a run's verdicts with what the scenario says it shows (`expect`). Returns one
 * sentence per expectation that did not come true; an empty list means the lesson works.
 */
export function unmetExpectations(scenario: Scenario, verdicts: readonly Verdict[]): string[] {
  return scenario.expect.flatMap((expectation) => {
    const verdict = verdicts.find((v) => v.invariant === expectation.invariant);
    if (!verdict) return [`no checker reported on '${expectation.invariant}'`];
    const outcome = verdict.holds ? 'holds' : 'violated';
    if (outcome === expectation.outcome) return [];
    return [`expected ${expectation.invariant} to be ${expectation.outcome}, but it ${verdict.holds ? 'held' : `was violated at ${verdict.atMs} ms`}`];
  });
}
