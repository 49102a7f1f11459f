import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/**
 * Fencing monotonicity: each resource accepts writes in non-decreasing token order. A lower
 * token accepted after a higher one means an older holder's write landed after a newer
 * holder's: exactly what fencing exists to refuse.
 */
export function checkFencingMonotonic(events: readonly TraceEvent[]): VerdictOf<'fencing-monotonic'> {
  const name = labelsOf(events);
  const highest = new Map<string, { token: number; id: number; from: string }>();
  const breaks: { at: number; ids: number[]; text: string }[] = [];
  for (const e of events) {
    if (e.kind !== 'resource.write' || !e.data.accepted || e.data.token === null) continue;
    const best = highest.get(e.actor);
    if (best && e.data.token < best.token) {
      breaks.push({
        at: e.at,
        ids: [best.id, e.id],
        text: `${name(e.actor)} accepted ${name(e.data.from)}'s token ${e.data.token} after ${name(best.from)}'s token ${best.token}: an older holder wrote after a newer one.`,
      });
      continue;
    }
    highest.set(e.actor, { token: e.data.token, id: e.id, from: e.data.from });
  }
  const b = breaks[0];
  return verdict(
    'fencing-monotonic',
    b,
    breaks.length,
    'Every accepted write carried a token at least as high as the one before it.',
  );
}

/** Judged once some write carried a fencing token. */
export const FENCING_MONOTONIC = defineInvariant({
  name: 'fencing-monotonic',
  reads: ['resource.write'],
  appliesTo: (run) => run.events.some((e) => e.kind === 'resource.write' && e.data.token !== null),
  check: (run) => checkFencingMonotonic(run.events),
});
