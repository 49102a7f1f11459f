import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { beliefsOf, labelsOf } from './beliefs';
import { defineInvariant, BELIEF_KINDS } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/**
 * Single holder, as the clients see it: no two clients believe they hold the same lock at the
 * same moment. This is the client's view; Redis may have long since handed the lease on (the
 * paused barista still "holds" a lock that expired while it slept). Compare with single-lease.
 */
export function checkSingleHolder(events: readonly TraceEvent[]): VerdictOf<'single-holder'> {
  const name = labelsOf(events);
  const beliefs = beliefsOf(events);
  const overlaps: { at: number; ids: [number, number]; first: string; second: string; key: string; sinceMs: number }[] =
    [];
  for (let i = 0; i < beliefs.length; i++) {
    for (let j = i + 1; j < beliefs.length; j++) {
      const [a, b] = [beliefs[i]!, beliefs[j]!];
      if (a.client === b.client || a.key !== b.key) continue;
      if (b.startMs >= a.endMs || a.startMs >= b.endMs) continue;
      overlaps.push({
        at: Math.max(a.startMs, b.startMs),
        ids: [a.startId, b.startId],
        first: a.client,
        second: b.client,
        key: a.key,
        sinceMs: a.startMs,
      });
    }
  }
  overlaps.sort((x, y) => x.at - y.at || x.ids[1] - y.ids[1]);
  const o = overlaps[0];
  const text = (o: (typeof overlaps)[number]) =>
    `${name(o.second)} came to believe it held “${o.key}” while ${name(o.first)} still believed it held it (since ${formatMs(o.sinceMs)}): two holders, as the clients see it.`;
  return verdict(
    'single-holder',
    o && { at: o.at, ids: o.ids, text: text(o) },
    overlaps.length,
    'No two clients ever believed they held the same lock at the same time.',
  );
}

export const SINGLE_HOLDER = defineInvariant({
  name: 'single-holder',
  reads: BELIEF_KINDS,
  appliesTo: () => true,
  check: (run) => checkSingleHolder(run.exclusive),
});
