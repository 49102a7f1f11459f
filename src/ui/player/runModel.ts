import type { Verdict } from '../../check/verdict';
import type { RunResult } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import type { RunConfig } from '../../scenario/running/simulation';
import type { TraceEvent, TraceKind } from '../../sim/traceEvents';

export type { RunConfig };

/** The run a player shows first: the scenario as written, its own seed and fencing, no learner actions. */
export function defaultRunConfig(scenario: Scenario): RunConfig {
  return { seed: scenario.seed, fencing: scenario.resource.fencing, actions: [] };
}

/** A finished run as the player shows it (computed in the simulation worker, see computeRun): a RunResult with its events themselves. */
export type ComputedRun = Pick<RunResult, 'verdicts' | 'traceHash' | 'ended'> & { events: TraceEvent[] };

/** When the first invariant broke, or null when every verdict holds. */
export function firstViolationMs(verdicts: readonly Verdict[]): number | null {
  let first: number | null = null;
  for (const v of verdicts) if (!v.holds && v.atMs !== null && (first === null || v.atMs < first)) first = v.atMs;
  return first;
}

/** Kinds a learner steps through; network plumbing and state labels ride along in between. */
const STEP_KINDS = new Set<TraceKind | string>([
  'action.apply',
  'process.pause',
  'process.resume',
  'process.crash',
  'process.restart',
  'clock.jump',
  'redis.command',
  'lease.granted',
  'lease.ended',
  'lock.acquired',
  'lock.busy',
  'lock.released',
  'resource.write',
  'net.partition',
  'net.heal',
  'request.timeout',
  'request.late',
  'lock.renewed',
  'lock.lost',
  'lock.failed',
  'run.end',
]);

export function isStepEvent(event: TraceEvent): boolean {
  return STEP_KINDS.has(event.kind);
}

/** The index of the next step event after `cursor` (or the last event). */
export function nextStep(events: readonly TraceEvent[], cursor: number): number {
  for (let i = cursor + 1; i < events.length; i++) if (isStepEvent(events[i]!)) return i;
  return events.length - 1;
}

/** The index of the previous step event before `cursor` (or 0). */
export function previousStep(events: readonly TraceEvent[], cursor: number): number {
  for (let i = cursor - 1; i > 0; i--) if (isStepEvent(events[i]!)) return i;
  return 0;
}

/** The last event that has happened by virtual time `timeMs`. */
export function cursorAtTime(events: readonly TraceEvent[], timeMs: number): number {
  let lo = 0;
  let hi = events.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (events[mid]!.at <= timeMs) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
