import { INVARIANTS, type InvariantName, type Scenario } from '../../scenario/schema/schema';

/**
 * The invariants a learner may ask Break it to break, in the order offered: those the scenario's
 * `expect` names first (what its author cares about), then the rest. `run-completes` is left
 * out: a run that never ends is reported by its own verdict, not hunted.
 */
export function invariantsToBreak(scenario: Scenario | null): InvariantName[] {
  const named = (scenario?.expect ?? []).flatMap((e) => (e.invariant === 'all' ? [] : [e.invariant]));
  const rest = INVARIANTS.filter((name) => name !== 'run-completes' && !named.includes(name));
  return [...new Set([...named, ...rest])];
}
