import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import type { Verdict } from './verdict';

/**
 * Single lease, as Redis sees it: at no moment do two owners each hold a given lock key on
 * enough nodes to count as holding it. With one node that takes two nodes disagreeing (after a
 * failover); with Redlock's N masters "holding" means a majority, so it breaks when a master
 * forgets or drops a lease early (restart without persistence, clock jump) and a second owner
 * gathers its own majority.
 *
 * `quorumOf(key)` is how many nodes make a holder: 1 for a single node, ⌊N/2⌋+1 for Redlock.
 */
export function checkSingleLease(events: readonly TraceEvent[], quorumOf: (key: string) => number): Verdict {
  const name = labelsOf(events);
  // key → node → { owner, grant event id }
  const leases = new Map<string, Map<string, { owner: string; id: number }>>();
  let first: { at: number; ids: number[]; owners: string[]; key: string } | null = null;
  let violations = 0;
  const wasViolated = new Set<string>();
  for (const e of events) {
    if (e.kind !== 'lease.granted' && e.kind !== 'lease.ended') continue;
    const key = e.data.key;
    const nodes = leases.get(key) ?? new Map<string, { owner: string; id: number }>();
    leases.set(key, nodes);
    if (e.kind === 'lease.granted') nodes.set(e.actor, { owner: e.data.owner, id: e.id });
    else nodes.delete(e.actor);

    const counts = new Map<string, number[]>();
    for (const { owner, id } of nodes.values()) counts.set(owner, [...(counts.get(owner) ?? []), id]);
    const holders = [...counts].filter(([, ids]) => ids.length >= quorumOf(key));
    const violated = holders.length >= 2;
    if (violated && !wasViolated.has(key)) {
      violations++;
      first ??= { at: e.at, ids: holders.map(([, ids]) => Math.max(...ids)).sort((a, b) => a - b), owners: holders.map(([o]) => o), key };
    }
    if (violated) wasViolated.add(key);
    else wasViolated.delete(key);
  }
  return {
    invariant: 'single-lease',
    holds: first === null,
    atMs: first?.at ?? null,
    eventIds: first?.ids ?? [],
    explanation: first
      ? `Redis itself granted “${first.key}” to ${first.owners.map(name).join(' and ')} at the same time${quorumOf(first.key) > 1 ? ', each on a majority of masters' : ''}.`
      : 'Redis never granted the same lock to two owners at once.',
    violations,
  };
}
