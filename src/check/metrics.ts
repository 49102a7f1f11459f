import type { TraceEvent } from '../sim/traceEvents';

/**
 * The lock metrics an operator would put on a dashboard, computed from a run's trace: how often
 * clients tried, how often they got the lock, how long they waited, and the three signs that a
 * lock is lying (renewals that failed, leases that ended under a holder that still believed in
 * them, stale writes the resource refused). Every series is stamped with its virtual time so a
 * chart can line it up with the pauses that caused it.
 *
 * "Lost leases" needs the whole world's view (Redis ended a lease its owner had not let go of),
 * which only the simulator has; in production the nearest signals are renewal failures and
 * fencing rejections.
 */
export interface LockMetrics {
  /** Virtual time of the last event: the run's length. */
  spanMs: number;
  /** Tries to take a lock: granted plus refused. */
  attempts: number;
  /** Tries that were granted. */
  acquired: number;
  /** Tries that were refused (the lock was taken): wasted round trips. */
  refused: number;
  /** Clients whose retry policy ran out before they got the lock. */
  gaveUp: number;
  /** acquired / attempts, or null when nobody tried. */
  successRate: number | null;
  /** Time from asking for a lock to holding it, over every acquisition; null when none. */
  acquireLatencyMs: Percentiles | null;
  /** The most clients waiting for a lock at one moment. */
  peakWaiting: number;
  /** Renewals that failed for good: the client gave up its lease (lock.lost). */
  renewalFailures: number;
  /** Leases that ended in Redis (expired, evicted, lost) while their owner still held them. */
  lostLeases: number;
  /** Writes the resource refused because their fencing token was stale. */
  fencingRejections: number;
  series: MetricSeries;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface MetricSeries {
  attempts: { atMs: number; client: string; granted: boolean }[];
  acquisitions: { atMs: number; client: string; latencyMs: number }[];
  /** A step function: from `atMs` on, `count` clients are waiting. */
  waiting: { atMs: number; count: number }[];
  renewalFailures: { atMs: number; client: string }[];
  lostLeases: { atMs: number; client: string }[];
  fencingRejections: { atMs: number; client: string }[];
  /** Stop-the-world pauses of any process, from pause to resume (or the run's end). */
  pauses: { actor: string; startMs: number; endMs: number }[];
}

/** Lease endings that mean Redis forgot a lease on its own, not because its owner deleted it. */
const LOST_REASONS = new Set(['expired', 'evicted', 'lost', 'overwritten']);

export function lockMetrics(events: readonly TraceEvent[]): LockMetrics {
  const series: MetricSeries = {
    attempts: [],
    acquisitions: [],
    waiting: [],
    renewalFailures: [],
    lostLeases: [],
    fencingRejections: [],
    pauses: [],
  };
  const askedAt = new Map<string, number>();
  /** `client\0key` for every lock a client holds right now (it got it and has not let go). */
  const held = new Set<string>();
  /** Holdings already counted as lost: a replica or another Redlock master ends the same lease too. */
  const counted = new Set<string>();
  const release = (client: string) => {
    for (const h of held) if (h.startsWith(`${client}\u0000`)) held.delete(h);
  };
  const pausedSince = new Map<string, number>();
  let gaveUp = 0;
  let peakWaiting = 0;
  let spanMs = 0;

  const waitingChanged = (atMs: number) => {
    peakWaiting = Math.max(peakWaiting, askedAt.size);
    const last = series.waiting[series.waiting.length - 1];
    if (last && last.atMs === atMs) last.count = askedAt.size;
    else series.waiting.push({ atMs, count: askedAt.size });
  };

  for (const e of events) {
    spanMs = e.at;
    switch (e.kind) {
      case 'lock.request':
        if (!askedAt.has(e.actor)) {
          askedAt.set(e.actor, e.at);
          waitingChanged(e.at);
        }
        break;
      case 'lock.busy':
        series.attempts.push({ atMs: e.at, client: e.actor, granted: false });
        break;
      case 'lock.acquired': {
        series.attempts.push({ atMs: e.at, client: e.actor, granted: true });
        held.add(`${e.actor}\u0000${e.data.key}`);
        counted.delete(`${e.actor}\u0000${e.data.key}`);
        const since = askedAt.get(e.actor);
        if (since !== undefined) {
          series.acquisitions.push({ atMs: e.at, client: e.actor, latencyMs: e.at - since });
          askedAt.delete(e.actor);
          waitingChanged(e.at);
        }
        break;
      }
      case 'lock.failed':
        gaveUp++;
        if (askedAt.delete(e.actor)) waitingChanged(e.at);
        break;
      case 'lock.released':
        release(e.actor);
        break;
      case 'lock.lost':
        series.renewalFailures.push({ atMs: e.at, client: e.actor });
        release(e.actor);
        break;
      case 'lease.ended': {
        const holding = `${e.data.owner}\u0000${e.data.key}`;
        if (held.has(holding) && LOST_REASONS.has(e.data.reason) && !counted.has(holding)) {
          counted.add(holding);
          series.lostLeases.push({ atMs: e.at, client: e.data.owner });
        }
        break;
      }
      case 'resource.write':
        if (!e.data.accepted && e.data.token !== null)
          series.fencingRejections.push({ atMs: e.at, client: e.data.from });
        break;
      case 'process.pause':
        pausedSince.set(e.actor, e.at);
        break;
      case 'process.resume':
      case 'process.crash': {
        // A crashed client stops waiting and stops holding (its lease may still run out in Redis,
        // but nobody believes in it any more).
        if (e.kind === 'process.crash') {
          if (askedAt.delete(e.actor)) waitingChanged(e.at);
          release(e.actor);
        }
        const start = pausedSince.get(e.actor);
        if (start !== undefined) {
          series.pauses.push({ actor: e.actor, startMs: start, endMs: e.at });
          pausedSince.delete(e.actor);
        }
        break;
      }
      default:
        break;
    }
  }
  for (const [actor, startMs] of pausedSince) series.pauses.push({ actor, startMs, endMs: spanMs });

  const acquired = series.acquisitions.length;
  const attempts = series.attempts.length;
  return {
    spanMs,
    attempts,
    acquired: series.attempts.filter((a) => a.granted).length,
    refused: series.attempts.filter((a) => !a.granted).length,
    gaveUp,
    successRate: attempts === 0 ? null : series.attempts.filter((a) => a.granted).length / attempts,
    acquireLatencyMs: acquired === 0 ? null : percentiles(series.acquisitions.map((a) => a.latencyMs)),
    peakWaiting,
    renewalFailures: series.renewalFailures.length,
    lostLeases: series.lostLeases.length,
    fencingRejections: series.fencingRejections.length,
    series,
  };
}

/** Nearest-rank percentiles: p95 is the smallest value at least 95% of the samples do not exceed. */
export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) throw new Error('percentiles of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: rank(50), p95: rank(95), p99: rank(99), max: sorted[sorted.length - 1]! };
}
