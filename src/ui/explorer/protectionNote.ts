import type { InvariantName, Scenario } from '../../scenario/schema/schema';

/**
 * What to say when the explorer breaks an invariant the scenario's protection never promised:
 * a fenced resource keeps writes in the order of their leases; it does not make one writer, nor
 * stop two clients believing they hold the lock. Null when there is nothing to add.
 */
export function protectionNote(scenario: Scenario, invariant: InvariantName): string | null {
  if (!scenario.resource.fencing || (invariant !== 'single-writer' && invariant !== 'single-holder')) return null;
  const what =
    invariant === 'single-writer' ? 'one writer at a time' : 'one client at a time that believes it holds the lock';
  return `Fencing is on, and it does not promise ${what}: it refuses a write from an older lease once a newer lease has written, so writes land in lease order. Break "writes in lease order" to test what it does promise.`;
}
