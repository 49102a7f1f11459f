import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/** One node's copy of a lease: who it names and the event that put it there. */
interface Copy {
  owner: string;
  id: number;
}

/**
 * Single lease, as Redis sees it: at no moment do two owners each hold a given lock key on
 * enough nodes to count as holding it. With one node that takes two nodes disagreeing (after a
 * failover); with Redlock's N masters "holding" means a majority, so it breaks when a master
 * forgets or drops a lease early (restart without persistence, clock jump) and a second owner
 * gathers its own majority.
 *
 * Only a primary grants. A replica keeps a copy of its primary's lease until the deletion
 * reaches it, so for a few milliseconds after a release it still names the old owner while the
 * primary already names the next one; that copy answers nobody's `SET NX`, and counting it
 * would cry wolf on every hand-over. A replica's copies start to count the moment it is
 * promoted (`redis.role` primary), which is exactly when a failover can hand one key to two
 * owners; a demoted primary's stop counting. Nodes that never report a role (a lone Redis, a
 * Redlock master, a lease service) are primaries.
 *
 * `quorumOf(key)` is how many nodes make a holder: 1 for a single node, ⌊N/2⌋+1 for Redlock.
 */
export function checkSingleLease(
  events: readonly TraceEvent[],
  quorumOf: (key: string) => number,
): VerdictOf<'single-lease'> {
  const name = labelsOf(events);
  // key → node → the copy that node keeps, primary or not.
  const leases = new Map<string, Map<string, Copy>>();
  const replicas = new Set<string>();
  // Set inside judge(): the cast keeps TypeScript from deciding it must still be null below.
  let first = null as { at: number; ids: number[]; owners: string[]; key: string } | null;
  let violations = 0;
  const wasViolated = new Set<string>();

  const judge = (key: string, at: number) => {
    const counts = new Map<string, number[]>();
    for (const [node, { owner, id }] of leases.get(key) ?? []) {
      if (!replicas.has(node)) counts.set(owner, [...(counts.get(owner) ?? []), id]);
    }
    const holders = [...counts].filter(([, ids]) => ids.length >= quorumOf(key));
    const violated = holders.length >= 2;
    if (violated && !wasViolated.has(key)) {
      violations++;
      first ??= {
        at,
        ids: holders.map(([, ids]) => Math.max(...ids)).sort((a, b) => a - b),
        owners: holders.map(([o]) => o),
        key,
      };
    }
    if (violated) wasViolated.add(key);
    else wasViolated.delete(key);
  };

  for (const e of events) {
    if (e.kind === 'redis.role') {
      if (e.data.role === 'replica') replicas.add(e.actor);
      else replicas.delete(e.actor);
      // A promotion can turn copies this node already kept into grants.
      for (const key of leases.keys()) judge(key, e.at);
      continue;
    }
    if (e.kind !== 'lease.granted' && e.kind !== 'lease.ended') continue;
    const key = e.data.key;
    const nodes = leases.get(key) ?? new Map<string, Copy>();
    leases.set(key, nodes);
    if (e.kind === 'lease.granted') nodes.set(e.actor, { owner: e.data.owner, id: e.id });
    else nodes.delete(e.actor);
    judge(key, e.at);
  }
  const text = (f: NonNullable<typeof first>) =>
    `Redis itself granted “${f.key}” to ${f.owners.map(name).join(' and ')} at the same time${quorumOf(f.key) > 1 ? ', each on a majority of masters' : ''}.`;
  return verdict(
    'single-lease',
    first && { at: first.at, ids: first.ids, text: text(first) },
    violations,
    'Redis never granted the same lock to two owners at once.',
  );
}

/** Only a primary grants: roles say which node is one. */
export const SINGLE_LEASE = defineInvariant({
  name: 'single-lease',
  reads: ['redis.role', 'lease.granted', 'lease.ended'],
  appliesTo: () => true,
  check: (run) => checkSingleLease(run.exclusive, run.options.quorumOf),
});
