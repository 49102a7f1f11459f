import type { TraceEvent } from '../sim/traceEvents';
import { lockMetrics, type LockMetrics } from './metrics';

/** A run's events in order, as a claim reads them. */
export type RunTrace = readonly TraceEvent[];

/**
 * What a lesson's prose can state about a run, measured from its trace: when something happened,
 * how long between two things, how many times, which token, or a dashboard metric. A lesson's
 * `claims` block (src/lessons/blocks/claims.ts) names these in words; lessons:check compares
 * the measure with the number the prose states.
 */

/** The happenings a claim can name, each a trace kind and how to tell whose it is. */
const EVENTS = {
  requested: { kind: 'lock.request', whose: 'actor' },
  acquired: { kind: 'lock.acquired', whose: 'actor' },
  busy: { kind: 'lock.busy', whose: 'actor' },
  renewed: { kind: 'lock.renewed', whose: 'actor' },
  released: { kind: 'lock.released', whose: 'actor' },
  lost: { kind: 'lock.lost', whose: 'actor' },
  failed: { kind: 'lock.failed', whose: 'actor' },
  /** A client sends a write to the resource. */
  write: { kind: 'resource.request', whose: 'actor' },
  /** The resource took a write (`by` is the writer). */
  accepted: { kind: 'resource.write', whose: 'from', accepted: true },
  /** The resource turned a write away. */
  rejected: { kind: 'resource.write', whose: 'from', accepted: false },
  /** Redis granted a lease (`by` is the new owner). */
  granted: { kind: 'lease.granted', whose: 'owner' },
  /** A lease ended in Redis, however it ended (`by` is the owner). */
  'lease-ended': { kind: 'lease.ended', whose: 'owner' },
  paused: { kind: 'process.pause', whose: 'actor' },
  resumed: { kind: 'process.resume', whose: 'actor' },
  crashed: { kind: 'process.crash', whose: 'actor' },
  /** A Redis node came back and replayed its persistence (`by` is the node). */
  recovered: { kind: 'redis.recover', whose: 'actor' },
  /** A node's or client's clock was stepped (`by` is whose clock). */
  'clock-jumped': { kind: 'clock.jump', whose: 'actor' },
  restarted: { kind: 'process.restart', whose: 'actor' },
  'timed-out': { kind: 'request.timeout', whose: 'actor' },
  /** Sentinel announced a promoted replica as the primary (`by` is the new primary). */
  promoted: { kind: 'failover.promote', whose: 'to' },
  /** A node was made to follow another after the start: re-pointed by Sentinel or by hand (`by` is the node). */
  repointed: { kind: 'redis.role', whose: 'actor', role: 'replica' },
} as const;

export type ClaimEvent = keyof typeof EVENTS;
export const CLAIM_EVENTS = Object.keys(EVENTS) as ClaimEvent[];

/** The dashboard's figures a claim can name (src/check/metrics.ts); successRate is a percentage. */
export const CLAIM_METRICS = [
  'attempts',
  'acquired',
  'refused',
  'gaveUp',
  'successRate',
  'peakWaiting',
  'renewalFailures',
  'lostLeases',
  'fencingRejections',
  'p50',
  'p95',
] as const;
export type ClaimMetric = (typeof CLAIM_METRICS)[number];

/** One happening: the nth (1-based, or the last) event of a kind, optionally of one actor. */
export interface EventQuery {
  event: ClaimEvent;
  by: string | null;
  nth: number | 'last';
}

export type Measure =
  | { kind: 'at'; query: EventQuery }
  | { kind: 'between'; from: EventQuery; to: EventQuery }
  | { kind: 'count'; event: ClaimEvent; by: string | null }
  | { kind: 'token'; query: EventQuery }
  | { kind: 'metric'; name: ClaimMetric }
  /** How long a Redlock acquisition may be trusted: TTL − elapsed − drift, as the client computed it. */
  | { kind: 'validity'; query: EventQuery }
  /** When that validity runs out: the acquisition's moment plus its validity. */
  | { kind: 'valid-until'; query: EventQuery }
  /** How many commands a Redis node replayed from its persistence when it came back. */
  | { kind: 'replayed'; query: EventQuery }
  /** When an invariant broke (the verdict's time, as the player shows it). */
  | { kind: 'verdict'; invariant: string };

/** A checker's verdict as a claim reads it: whether it held, and when it broke. */
export interface ClaimVerdict {
  invariant: string;
  holds: boolean;
  atMs: number | null;
}

/** What a measure is in: milliseconds of simulated time, a plain number, or a percentage. */
export function unitOf(measure: Measure): 'ms' | 'count' | 'percent' {
  if (
    measure.kind === 'at' ||
    measure.kind === 'between' ||
    measure.kind === 'validity' ||
    measure.kind === 'valid-until' ||
    measure.kind === 'verdict'
  )
    return 'ms';
  if (measure.kind === 'metric')
    return measure.name === 'successRate'
      ? 'percent'
      : measure.name === 'p50' || measure.name === 'p95'
        ? 'ms'
        : 'count';
  return 'count';
}

/** The events a query's kind and actor select, in trace order. */
function matching(events: readonly TraceEvent[], event: ClaimEvent, by: string | null): TraceEvent[] {
  const spec = EVENTS[event];
  return events.filter((e) => {
    if (e.kind !== spec.kind) return false;
    if ('accepted' in spec && (e.data as { accepted: boolean }).accepted !== spec.accepted) return false;
    if ('role' in spec) {
      const { role, reason } = e.data as { role: string; reason: string };
      if (role !== spec.role || reason === 'configured') return false;
    }
    if (by === null) return true;
    const whose = spec.whose === 'actor' ? e.actor : (e.data as Record<string, unknown>)[spec.whose];
    return whose === by;
  });
}

function find(events: readonly TraceEvent[], query: EventQuery): TraceEvent | undefined {
  const found = matching(events, query.event, query.by);
  return query.nth === 'last' ? found.at(-1) : found[query.nth - 1];
}

/** Describes a query as a claim writes it: "2nd write by A". */
export function describeQuery(query: EventQuery): string {
  const nth = query.nth === 'last' ? 'last ' : query.nth === 1 ? '' : `${ordinal(query.nth)} `;
  return `${nth}${query.event}${query.by === null ? '' : ` by ${query.by}`}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The measure's value in this run, or a sentence saying why there is none (the event never
 * happened, a write carried no token). Metrics are computed once per trace by the caller's
 * `metrics` thunk, since one lesson may state several.
 */
export function measure(
  events: readonly TraceEvent[],
  what: Measure,
  metrics: () => LockMetrics = () => lockMetrics(events),
  verdicts: readonly ClaimVerdict[] = [],
): { value: number } | { missing: string } {
  switch (what.kind) {
    case 'validity':
    case 'valid-until': {
      const found = find(events, what.query);
      if (!found) return { missing: `the run has no ${describeQuery(what.query)}` };
      const validity = (found.data as { validityMs?: number | null }).validityMs;
      if (typeof validity !== 'number')
        return { missing: `${describeQuery(what.query)} carries no validity (only a Redlock acquisition has one)` };
      return { value: what.kind === 'validity' ? validity : found.at + validity };
    }
    case 'replayed': {
      const found = find(events, what.query);
      if (!found) return { missing: `the run has no ${describeQuery(what.query)}` };
      const commands = (found.data as { commands?: number }).commands;
      return typeof commands === 'number'
        ? { value: commands }
        : { missing: `${describeQuery(what.query)} replays nothing (only a Redis node's recovery does)` };
    }
    case 'verdict': {
      const verdict = verdicts.find((v) => v.invariant === what.invariant);
      if (!verdict)
        return {
          missing: `the run judges no '${what.invariant}' (it checks ${verdicts.map((v) => v.invariant).join(', ')})`,
        };
      if (verdict.holds || verdict.atMs === null) return { missing: `${what.invariant} never broke` };
      return { value: verdict.atMs };
    }
    case 'at': {
      const found = find(events, what.query);
      return found ? { value: found.at } : { missing: `the run has no ${describeQuery(what.query)}` };
    }
    case 'between': {
      const from = find(events, what.from);
      const to = find(events, what.to);
      if (!from) return { missing: `the run has no ${describeQuery(what.from)}` };
      if (!to) return { missing: `the run has no ${describeQuery(what.to)}` };
      return { value: to.at - from.at };
    }
    case 'count':
      return { value: matching(events, what.event, what.by).length };
    case 'token': {
      const found = find(events, what.query);
      if (!found) return { missing: `the run has no ${describeQuery(what.query)}` };
      const token = (found.data as { token?: number | null }).token;
      return typeof token === 'number'
        ? { value: token }
        : { missing: `${describeQuery(what.query)} carries no token` };
    }
    case 'metric': {
      const m = metrics();
      if (what.name === 'p50' || what.name === 'p95') {
        return m.acquireLatencyMs
          ? { value: m.acquireLatencyMs[what.name] }
          : { missing: 'the run has no acquisitions' };
      }
      if (what.name === 'successRate')
        return m.successRate === null ? { missing: 'nobody tried to take the lock' } : { value: m.successRate * 100 };
      return { value: m[what.name] };
    }
  }
}
