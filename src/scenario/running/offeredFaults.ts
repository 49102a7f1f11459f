import { FAULT_KINDS, type FaultKind } from '../../check/faults';
import type { ControlName, Scenario } from '../schema/schema';

// Its own module, light on purpose: the page's player imports it, and the explorer (with the
// simulator and zod's schemas behind it) must stay in the workers.

/** The control a scenario must offer for a lesson's player to search with each kind of fault. */
const CONTROL_OF: Record<FaultKind, ControlName> = {
  pause: 'pause',
  crash: 'crash',
  restart: 'restart',
  partition: 'partition',
  'clock-jump': 'clock-jump',
  failover: 'failover',
  'message-loss': 'network',
};

/** The faults a lesson's "Find the bug for me" may use: those the scenario lets the learner cause. */
export function offeredFaultKinds(scenario: Pick<Scenario, 'controls'>): FaultKind[] {
  return FAULT_KINDS.filter((kind) => (scenario.controls as readonly string[]).includes(CONTROL_OF[kind]));
}
