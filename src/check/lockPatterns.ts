import type { TraceEvent } from '../sim/traceEvents';

/** What the lock-pattern checkers need to know about a run's clients. */
export interface PatternFacts {
  /** Keys several clients may hold at once (read-write locks, semaphores): single-holder and single-lease skip them. */
  sharedKeys: ReadonlySet<string>;
  /** The clients of those locks: single-writer skips their writes (they share the resource by design). */
  sharedClients: ReadonlySet<string>;
  /** Each semaphore key's permits (the fewest any of its clients was given). */
  permitsOf: ReadonlyMap<string, number>;
  /** Keys of read-write locks, and the clients that take them as writers. */
  readWriteKeys: ReadonlySet<string>;
  writers: ReadonlySet<string>;
  /** Keys of fair locks. */
  fairKeys: ReadonlySet<string>;
  /** Some client has a circuit breaker. */
  breakers: boolean;
}

/**
 * Gathers the pattern facts from the lock patterns run.start records for the run's clients: a
 * checker judges the trace alone, whether it came from the simulator or from real Redis.
 */
export function patternFacts(events: readonly TraceEvent[]): PatternFacts {
  const sharedKeys = new Set<string>();
  const sharedClients = new Set<string>();
  const permitsOf = new Map<string, number>();
  const readWriteKeys = new Set<string>();
  const writers = new Set<string>();
  const fairKeys = new Set<string>();
  let breakers = false;
  const start = events.find((e) => e.kind === 'run.start');
  for (const { id, lock } of start?.kind === 'run.start' ? start.data.actors : []) {
    if (lock === undefined) continue;
    if (lock.shares !== undefined) {
      sharedClients.add(id);
      for (const k of lock.keys) sharedKeys.add(k);
    }
    if (lock.shares === 'semaphore')
      for (const k of lock.keys) permitsOf.set(k, Math.min(permitsOf.get(k) ?? Infinity, lock.permits ?? 1));
    if (lock.shares === 'reader' || lock.shares === 'writer') for (const k of lock.keys) readWriteKeys.add(k);
    if (lock.shares === 'writer') writers.add(id);
    if (lock.fair) for (const k of lock.keys) fairKeys.add(k);
    breakers ||= lock.breaker === true;
  }
  return { sharedKeys, sharedClients, permitsOf, readWriteKeys, writers, fairKeys, breakers };
}
