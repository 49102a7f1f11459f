import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/**
 * Writes in lease order: once the resource has accepted a write made under one lease, it never
 * accepts a write made under an older lease. Leases are ordered by when their clients got them;
 * a write belongs to its client's latest lease (a write by a client that never took the lock is
 * single-writer's business, not this one's). This is what fencing promises, said without
 * tokens: it holds when tokens follow the leases and the resource checks them, and it breaks
 * when the resource does not check, or when the tokens do not follow the leases (drawn with
 * `INCR` before the `SET`, so a client can carry a larger number than the lease after its own).
 *
 * The proof is the newer lease's accepted write and the older one accepted after it.
 */
export function checkWritesInLeaseOrder(events: readonly TraceEvent[]): VerdictOf<'writes-in-lease-order'> {
  const name = labelsOf(events);
  // client → its latest lease: its place in the order of all acquisitions, and when it began.
  const lease = new Map<string, { rank: number; at: number }>();
  let acquisitions = 0;
  let newest: { rank: number; at: number; id: number; from: string } | null = null;
  const breaks: { at: number; ids: number[]; text: string }[] = [];
  for (const e of events) {
    if (e.kind === 'lock.acquired') lease.set(e.actor, { rank: acquisitions++, at: e.at });
    // A client that gave up, or crashed and starts over, writes under no lease until it takes one.
    if (e.kind === 'lock.failed' || e.kind === 'process.crash') lease.delete(e.actor);
    if (e.kind !== 'resource.write' || !e.data.accepted) continue;
    const own = lease.get(e.data.from);
    if (own === undefined) continue;
    if (newest !== null && own.rank < newest.rank) {
      breaks.push({
        at: e.at,
        ids: [newest.id, e.id],
        text: `${name(e.actor)} accepted ${name(e.data.from)}'s write (its lease from ${formatMs(own.at)}) after ${name(newest.from)}'s (a lease from ${formatMs(newest.at)}): an older holder wrote over a newer one.`,
      });
      continue;
    }
    if (newest === null || own.rank > newest.rank) newest = { rank: own.rank, at: own.at, id: e.id, from: e.data.from };
  }
  const b = breaks[0];
  return verdict(
    'writes-in-lease-order',
    b,
    breaks.length,
    'No write made under an older lease was accepted after one made under a newer lease.',
  );
}

/** The review clinic's: judged when a scenario (or the explorer) asks for it. */
export const WRITES_IN_LEASE_ORDER = defineInvariant({
  name: 'writes-in-lease-order',
  reads: ['lock.acquired', 'lock.failed', 'process.crash', 'resource.write'],
  appliesTo: () => false,
  check: (run) => checkWritesInLeaseOrder(run.exclusive),
});
