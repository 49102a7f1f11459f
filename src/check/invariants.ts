import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import { CALM_WHEN_DOWN } from './calmWhenDown';
import { FENCING_MONOTONIC } from './fencingMonotonic';
import type { CheckOptions, CheckRun } from './invariant';
import { WRITES_IN_LEASE_ORDER } from './leaseOrder';
import { patternFacts, type PatternFacts } from './lockPatterns';
import { PROGRESS } from './progress';
import { NO_DOUBLE_ASSIGNMENT, NO_DOUBLE_CHARGE, NO_LOST_UPDATE } from './resourceEffects';
import { RELEASED_BY_OWNER } from './releasedByOwner';
import { RUN_COMPLETES } from './runCompletes';
import { READERS_OR_ONE_WRITER, WITHIN_PERMITS } from './sharedHolders';
import { SINGLE_HOLDER } from './singleHolder';
import { SINGLE_LEASE } from './singleLease';
import { SINGLE_WRITER } from './singleWriter';
import type { VerdictOf } from './verdictOf';
import { BOUNDED_WAIT, SERVED_IN_ORDER } from './waiting';

export type { CheckOptions, RunCap } from './invariant';

/**
 * Every invariant a run is judged on, in the order its verdicts are listed: the lock's own
 * first, then the patterns', the resource's, progress, and last whether the run ended at all.
 * An invariant is one file (its checker and its `defineInvariant`) and one line here; its name
 * joins InvariantName, the scenario schema's `expect` and the explorer's choices by itself.
 */
export const INVARIANT_REGISTRY = [
  SINGLE_WRITER,
  SINGLE_HOLDER,
  SINGLE_LEASE,
  RELEASED_BY_OWNER,
  WRITES_IN_LEASE_ORDER,
  WITHIN_PERMITS,
  READERS_OR_ONE_WRITER,
  SERVED_IN_ORDER,
  BOUNDED_WAIT,
  CALM_WHEN_DOWN,
  FENCING_MONOTONIC,
  NO_LOST_UPDATE,
  NO_DOUBLE_CHARGE,
  NO_DOUBLE_ASSIGNMENT,
  PROGRESS,
  RUN_COMPLETES,
] as const;

export type InvariantName = (typeof INVARIANT_REGISTRY)[number]['name'];

/** Every invariant's name, in the registry's order. */
export const INVARIANTS: readonly InvariantName[] = INVARIANT_REGISTRY.map((i) => i.name);

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

/**
 * The only kinds of event any checker reads: what a run's verdicts need. The deliveries,
 * commands and state changes that make up most of a trace are never built into event objects
 * for a verdict, and the explorer, which judges one invariant per run, builds only what that
 * one reads (single-writer: a tenth of what all the checkers read).
 */
export const CHECKED_KINDS: ReadonlySet<TraceKind> = new Set([
  ...EVERY_CHECKER,
  ...INVARIANT_REGISTRY.flatMap((i) => i.reads),
]);

const KINDS_READ = new Map<string, ReadonlySet<TraceKind>>(
  INVARIANT_REGISTRY.map((i) => [i.name, new Set([...EVERY_CHECKER, ...i.reads])]),
);

/** The kinds of event `invariant`'s checker reads; every checked kind for a name it does not know. */
export function kindsRead(invariant: string): ReadonlySet<TraceKind> {
  return KINDS_READ.get(invariant) ?? CHECKED_KINDS;
}

/**
 * Every invariant that applies to this run, judged in the registry's order. One that cannot
 * say anything here (double charge without a payment provider) is left out unless the scenario
 * asked for it. With `only`, just that one is judged (when it applies), and gives the verdict
 * it gives among all the others.
 */
export function runCheckers(
  events: readonly TraceEvent[],
  options: CheckOptions<InvariantName>,
): VerdictOf<InvariantName>[] {
  const patterns = patternFacts(events);
  // Several clients may hold a read-write lock or a semaphore at once: those keys have their own checkers.
  const run: CheckRun = { events, exclusive: exclusiveOnly(events, patterns), patterns, options };
  const out: VerdictOf<InvariantName>[] = [];
  for (const invariant of INVARIANT_REGISTRY) {
    if (options.only !== undefined && options.only !== invariant.name) continue;
    if (invariant.appliesTo(run) || options.expected.includes(invariant.name)) out.push(invariant.check(run));
  }
  return out;
}
