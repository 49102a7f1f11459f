import type { TraceEvent } from '../../sim/traceEvents';

/**
 * Each Redis node's replication role after the first `cursor + 1` events, read from the
 * topology's trace events. A run without replication has no roles (the map is empty), so
 * every node reads as a standalone primary.
 */
export function rolesAt(events: readonly TraceEvent[], cursor: number): Map<string, string> {
  const roles = new Map<string, string>();
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i] as { kind: string; actor: string; data: Record<string, unknown> };
    const role = roleChange(e);
    if (role) roles.set(role.node, role.role);
  }
  return roles;
}

/** The role an event gives a node, if it is one of the topology's role events. */
function roleChange(e: {
  kind: string;
  actor: string;
  data: Record<string, unknown>;
}): { node: string; role: string } | null {
  const role = typeof e.data.role === 'string' ? e.data.role : null;
  switch (e.kind) {
    case 'redis.role':
    case 'replication.role':
      return role ? { node: e.actor, role: normalise(role) } : null;
    case 'failover.promoted':
    case 'replica.promoted':
      return { node: typeof e.data.node === 'string' ? e.data.node : e.actor, role: 'primary' };
    default:
      return null;
  }
}

function normalise(role: string): string {
  return role === 'master' ? 'primary' : role === 'slave' ? 'replica' : role;
}
