import type { TraceEvent } from '../sim/traceEvents';

/**
 * A run's leases as the reality tests read them: each grant and each end, in order, as
 * "<owner> granted" or "<owner> <reason>" ("A expired", "B deleted"), `server`'s only if given.
 */
export function leaseStory(trace: readonly TraceEvent[], server?: string): string[] {
  return trace.flatMap((e) => {
    if (server !== undefined && e.actor !== server) return [];
    if (e.kind === 'lease.granted') return [`${e.data.owner} granted`];
    return e.kind === 'lease.ended' ? [`${e.data.owner} ${e.data.reason}`] : [];
  });
}
