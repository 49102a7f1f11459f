import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { beliefsOf, labelsOf, type Belief } from './beliefs';
import { defineInvariant, BELIEF_KINDS } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/** The beliefs on `key` that were held at `at` (a belief that ends at `at` is over). */
function heldAt(beliefs: readonly Belief[], at: number): Belief[] {
  return beliefs.filter((b) => b.startMs <= at && at < b.endMs);
}

/** Beliefs by key, in the order they began. */
function byKey(beliefs: readonly Belief[], keys: (key: string) => boolean): Map<string, Belief[]> {
  const out = new Map<string, Belief[]>();
  for (const b of beliefs) {
    if (!keys(b.key)) continue;
    if (!out.has(b.key)) out.set(b.key, []);
    out.get(b.key)!.push(b);
  }
  return out;
}

/**
 * Within permits (a semaphore): at no moment do more clients believe they hold the key than
 * its permits allow. The proof is the acquisitions of everyone holding at the moment the
 * count went over: the last of them is the one too many.
 */
export function checkWithinPermits(
  events: readonly TraceEvent[],
  permitsOf: ReadonlyMap<string, number>,
): VerdictOf<'within-permits'> {
  const name = labelsOf(events);
  let first: { at: number; ids: number[]; text: string } | null = null;
  let violations = 0;
  for (const [key, beliefs] of byKey(beliefsOf(events), (k) => permitsOf.has(k))) {
    const permits = permitsOf.get(key)!;
    // The count only rises when a belief starts, so those are the moments to look at.
    for (const b of beliefs) {
      const holders = heldAt(beliefs, b.startMs);
      if (holders.length <= permits) continue;
      violations++;
      if (first === null || b.startMs < first.at) {
        const who = holders.map((h) => name(h.client)).join(', ');
        first = {
          at: b.startMs,
          ids: holders.map((h) => h.startId).sort((x, y) => x - y),
          text: `${holders.length} clients believed they held “${key}” at once (${who}), but it has only ${permits} permit${permits === 1 ? '' : 's'}.`,
        };
      }
    }
  }
  return verdict('within-permits', first, violations, 'No semaphore ever had more holders than permits.');
}

/**
 * Readers or one writer (a read-write lock): while a writer believes it holds the key nobody
 * else does, reader or writer; any number of readers may hold it together. The proof is the
 * two acquisitions whose beliefs overlapped.
 */
export function checkReadersOrOneWriter(
  events: readonly TraceEvent[],
  keys: ReadonlySet<string>,
  isWriter: (client: string) => boolean,
): VerdictOf<'readers-or-one-writer'> {
  const name = labelsOf(events);
  const clashes: { at: number; ids: [number, number]; text: string }[] = [];
  for (const [key, beliefs] of byKey(beliefsOf(events), (k) => keys.has(k))) {
    for (let i = 0; i < beliefs.length; i++) {
      for (let j = i + 1; j < beliefs.length; j++) {
        const [a, b] = [beliefs[i]!, beliefs[j]!];
        if (a.client === b.client || (!isWriter(a.client) && !isWriter(b.client))) continue;
        if (b.startMs >= a.endMs || a.startMs >= b.endMs) continue;
        const role = (c: string) => (isWriter(c) ? 'writer' : 'reader');
        clashes.push({
          at: Math.max(a.startMs, b.startMs),
          ids: [a.startId, b.startId],
          text: `${name(b.client)} (a ${role(b.client)}) came to believe it held “${key}” while ${name(a.client)} (a ${role(a.client)}) had held it since ${formatMs(a.startMs)}: a writer must hold it alone.`,
        });
      }
    }
  }
  clashes.sort((x, y) => x.at - y.at || x.ids[1] - y.ids[1]);
  const c = clashes[0];
  return verdict(
    'readers-or-one-writer',
    c,
    clashes.length,
    'Writers always held the lock alone; only readers ever shared it.',
  );
}

export const WITHIN_PERMITS = defineInvariant({
  name: 'within-permits',
  reads: BELIEF_KINDS,
  appliesTo: (run) => run.patterns.permitsOf.size > 0,
  check: (run) => checkWithinPermits(run.events, run.patterns.permitsOf),
});

export const READERS_OR_ONE_WRITER = defineInvariant({
  name: 'readers-or-one-writer',
  reads: BELIEF_KINDS,
  appliesTo: (run) => run.patterns.readWriteKeys.size > 0,
  check: (run) => checkReadersOrOneWriter(run.events, run.patterns.readWriteKeys, (c) => run.patterns.writers.has(c)),
});
