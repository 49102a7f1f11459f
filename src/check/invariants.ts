import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import { checkFencingMonotonic } from './fencingMonotonic';
import { checkProgress } from './progress';
import { checkDoubleAssignment, checkDoubleCharge, checkLostUpdate } from './resourceEffects';
import { checkSingleHolder } from './singleHolder';
import { checkSingleLease } from './singleLease';
import { checkSingleWriter } from './singleWriter';
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
}

/**
 * The only kinds of event the checkers read (plus the run's end, the last moment a stall can be
 * seen). A run's verdicts need these alone, so the deliveries, commands and state changes that
 * make up most of a trace are never built into event objects for them. Sends are read because
 * a belief ends when its release is sent (beliefs.ts); roles, because only a primary grants.
 */
export const CHECKED_KINDS: ReadonlySet<TraceKind> = new Set<TraceKind>([
  'run.start',
  'run.end',
  'lock.request',
  'lock.acquired',
  'lock.released',
  'lock.lost',
  'lock.failed',
  'lease.granted',
  'lease.ended',
  'redis.role',
  'net.send',
  'resource.write',
  'process.crash',
]);

/**
 * Every checker that applies to this run, in a fixed order: the lock's own invariants first,
 * then the resource's. A checker that cannot say anything here (double charge without a
 * payment provider) is left out unless the scenario asked for it.
 */
export function runCheckers(events: readonly TraceEvent[], options: CheckOptions): Verdict[] {
  const tokens = events.some((e) => e.kind === 'resource.write' && e.data.token !== null);
  const wanted = (name: string, applies: boolean) => applies || options.expected.includes(name);
  const out = [checkSingleWriter(events), checkSingleHolder(events), checkSingleLease(events, options.quorumOf)];
  if (wanted('fencing-monotonic', tokens)) out.push(checkFencingMonotonic(events));
  if (wanted('no-lost-update', options.resourceKind === 'inventory')) out.push(checkLostUpdate(events));
  if (wanted('no-double-charge', options.resourceKind === 'payment')) out.push(checkDoubleCharge(events));
  if (wanted('no-double-assignment', options.resourceKind === 'dispatch')) out.push(checkDoubleAssignment(events));
  out.push(checkProgress(events, options.progressWithinMs));
  return out;
}
