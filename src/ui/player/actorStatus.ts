import type { TraceEvent } from '../../sim/traceEvents';
import { partitionedAt } from './actorActions';
import { processStatusesAt } from '../../actors/process/processStatus';
import { rolesAt } from './roles';

/**
 * A short string that changes exactly when an actor's status (running, paused, crashed), a
 * node's role, or whether the network is partitioned changes by `cursor`. Panels that show
 * fault buttons select it from the store, so they re-render when a button's state can change
 * and not on every step.
 */
export function actorStatusKey(events: readonly TraceEvent[], cursor: number): string {
  const parts: string[] = [];
  for (const [id, status] of processStatusesAt(events, cursor)) if (status !== 'running') parts.push(`${id}=${status}`);
  for (const [id, role] of rolesAt(events, cursor)) parts.push(`${id}:${role}`);
  if (partitionedAt(events, cursor)) parts.push('|cut');
  return parts.join(' ');
}
