import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import { checkCalmWhenDown } from './calmWhenDown';
import { checkFencingMonotonic } from './fencingMonotonic';
import { checkWritesInLeaseOrder } from './leaseOrder';
import { NO_PATTERNS, type PatternFacts } from './lockPatterns';
import { checkProgress } from './progress';
import { checkDoubleAssignment, checkDoubleCharge, checkLostUpdate } from './resourceEffects';
import { checkReleasedByOwner } from './releasedByOwner';
import { checkSingleHolder } from './singleHolder';
import { checkSingleLease } from './singleLease';
import { checkReadersOrOneWriter, checkWithinPermits } from './sharedHolders';
import { checkSingleWriter } from './singleWriter';
import { checkBoundedWait, checkServedInOrder } from './waiting';
import type { Verdict } from './verdict';

export interface CheckOptions {
  /** How many Redis nodes make a holder of `key` (1, or a Redlock majority). */
  quorumOf: (key: string) => number;
  /** The longest stall the progress checker tolerates. */
  progressWithinMs: number;
  /** The protected resource's kind: decides which resource checkers apply. */
  resourceKind: string;
  /** Invariants the scenario expects a verdict on, reported even where they would not apply. */
  expected: readonly string[];
  /** The lock patterns in the run (semaphores, read-write and fair locks, breakers); none by default. */
  patterns?: PatternFacts;
  /** bounded-wait's limit (it applies only when set, or expected: then progress's limit is the default). */
  maxWaitMs?: number | null;
  /** calm-when-down's bound on requests per second to a down node. */
  downAttemptsPerSecond?: number | null;
  /** Judge this invariant alone (the explorer hunts one and reads no other verdict). */
  only?: string;
}

/** calm-when-down's bound when the scenario gives none: a few tries a second is already a lot against a dead server. */
const DEFAULT_DOWN_ATTEMPTS_PER_SECOND = 5;

/**
 * The events of locks only one client may hold: without the lock events and resource writes of
 * the clients of shared locks (readers, semaphore holders), nor the leases of their keys.
 */
function exclusiveOnly(events: readonly TraceEvent[], patterns: PatternFacts): readonly TraceEvent[] {
  if (patterns.sharedClients.size === 0) return events;
  const { sharedClients, sharedKeys } = patterns;
  return events.filter((e) => {
    if (e.kind === 'resource.write') return !sharedClients.has(e.data.from);
    if (e.kind === 'lease.granted' || e.kind === 'lease.ended') return !sharedKeys.has(e.data.key);
    return !(e.kind.startsWith('lock.') && sharedClients.has(e.actor));
  });
}

/** Every checker reads the actors' names (run.start) and the run's end, the last moment a stall can be seen. */
const EVERY_CHECKER: readonly TraceKind[] = ['run.start', 'run.end'];
/** What a client believes it holds (beliefs.ts): a belief ends when its release is sent, so sends are read. */
const BELIEFS: readonly TraceKind[] = ['lock.acquired', 'lock.released', 'lock.lost', 'process.crash', 'net.send'];
/** Who waits for a lock, from the request to the answer (waiting.ts). */
const WAITS: readonly TraceKind[] = ['lock.request', 'lock.acquired', 'lock.failed', 'process.crash'];

/**
 * The kinds of event each checker reads. The deliveries, commands and state changes that make
 * up most of a trace are never built into event objects for a verdict, and the explorer, which
 * judges one invariant per run, builds only what that one reads (single-writer: a tenth of
 * what all the checkers read).
 */
const KINDS_READ: Readonly<Record<string, readonly TraceKind[]>> = {
  'single-writer': ['lock.acquired', 'lock.failed', 'resource.write'],
  'single-holder': BELIEFS,
  // Only a primary grants: roles say which node is one.
  'single-lease': ['redis.role', 'lease.granted', 'lease.ended'],
  'released-by-owner': [...BELIEFS, 'lease.granted', 'lease.ended'],
  'writes-in-lease-order': ['lock.acquired', 'lock.failed', 'process.crash', 'resource.write'],
  'within-permits': BELIEFS,
  'readers-or-one-writer': BELIEFS,
  'served-in-order': WAITS,
  // A client's own pauses do not count as waiting.
  'bounded-wait': [...WAITS, 'process.pause', 'process.resume'],
  // A Redis node's outage ends at its restart.
  'calm-when-down': ['net.send', 'process.crash', 'process.restart'],
  'fencing-monotonic': ['resource.write'],
  'no-lost-update': ['resource.write'],
  'no-double-charge': ['resource.write'],
  'no-double-assignment': ['resource.write'],
  progress: [...WAITS, 'resource.write'],
};

/** The only kinds of event any checker reads: what a run's verdicts need. */
export const CHECKED_KINDS: ReadonlySet<TraceKind> = new Set([...EVERY_CHECKER, ...Object.values(KINDS_READ).flat()]);

const KINDS_READ_SETS = new Map(Object.entries(KINDS_READ).map(([name, kinds]) => [name, new Set([...EVERY_CHECKER, ...kinds])]));

/** The kinds of event `invariant`'s checker reads (see KINDS_READ); every checked kind for a name it does not know. */
export function kindsRead(invariant: string): ReadonlySet<TraceKind> {
  return KINDS_READ_SETS.get(invariant) ?? CHECKED_KINDS;
}

/**
 * Every checker that applies to this run, in a fixed order: the lock's own invariants first,
 * then the resource's. A checker that cannot say anything here (double charge without a
 * payment provider) is left out unless the scenario asked for it. With `only`, just that one
 * checker runs (when it applies), and gives the verdict it gives among all the others.
 */
export function runCheckers(events: readonly TraceEvent[], options: CheckOptions): Verdict[] {
  const tokens = events.some((e) => e.kind === 'resource.write' && e.data.token !== null);
  const wanted = (name: string, applies: boolean) => (options.only === undefined || options.only === name) && (applies || options.expected.includes(name));
  const patterns = options.patterns ?? NO_PATTERNS;
  // Several clients may hold a read-write lock or a semaphore at once: those keys have their own checkers.
  const exclusive = exclusiveOnly(events, patterns);
  const out: Verdict[] = [];
  if (wanted('single-writer', true)) out.push(checkSingleWriter(exclusive));
  if (wanted('single-holder', true)) out.push(checkSingleHolder(exclusive));
  if (wanted('single-lease', true)) out.push(checkSingleLease(exclusive, options.quorumOf));
  // The review clinic's two: judged when a scenario (or the explorer) asks for them.
  if (wanted('released-by-owner', false)) out.push(checkReleasedByOwner(exclusive));
  if (wanted('writes-in-lease-order', false)) out.push(checkWritesInLeaseOrder(exclusive));
  if (wanted('within-permits', patterns.permitsOf.size > 0)) out.push(checkWithinPermits(events, patterns.permitsOf));
  if (wanted('readers-or-one-writer', patterns.readWriteKeys.size > 0)) {
    out.push(checkReadersOrOneWriter(events, patterns.readWriteKeys, (c) => patterns.writers.has(c)));
  }
  // Asked of a run without a fair lock (to show an unfair one), it judges every key.
  if (wanted('served-in-order', patterns.fairKeys.size > 0)) out.push(checkServedInOrder(events, patterns.fairKeys.size > 0 ? patterns.fairKeys : null));
  const maxWaitMs = options.maxWaitMs ?? null;
  if (wanted('bounded-wait', maxWaitMs !== null)) out.push(checkBoundedWait(events, maxWaitMs ?? options.progressWithinMs));
  if (wanted('calm-when-down', patterns.breakers)) out.push(checkCalmWhenDown(events, options.downAttemptsPerSecond ?? DEFAULT_DOWN_ATTEMPTS_PER_SECOND));
  if (wanted('fencing-monotonic', tokens)) out.push(checkFencingMonotonic(events));
  if (wanted('no-lost-update', options.resourceKind === 'inventory')) out.push(checkLostUpdate(events));
  if (wanted('no-double-charge', options.resourceKind === 'payment')) out.push(checkDoubleCharge(events));
  if (wanted('no-double-assignment', options.resourceKind === 'dispatch')) out.push(checkDoubleAssignment(events));
  if (wanted('progress', true)) out.push(checkProgress(events, options.progressWithinMs));
  return out;
}
