import { beliefSteps } from '../check/beliefs';
import type { TraceEvent } from '../sim/traceEvents';
import type { Interval } from './modelTypes';
import { EVENTS_PER_STEP, runSteps, type Steps } from '../sim/steps';

/**
 * Builds the timeline's intervals from the trace: leases as each Redis node holds them, pauses,
 * crashes and partitions in one pass here, and beliefs as each client holds them from the one
 * belief rule the checkers use (check/beliefs.ts), so the bars a learner sees and the verdict
 * beside them can never disagree. Anything still open when the run ends is closed at `endMs`
 * with `endId: null`, so the picture never pretends it ended.
 */
export function buildIntervals(events: readonly TraceEvent[], endMs: number): Interval[] {
  return runSteps(intervalSteps(events, endMs));
}

/** buildIntervals, pausable every EVENTS_PER_STEP events and before the beliefs. */
export function* intervalSteps(events: readonly TraceEvent[], endMs: number): Steps<Interval[]> {
  const done: Interval[] = [];
  const open = new Map<string, Interval>();
  // Node → the stretches it spent as a replica (its copies of leases grant nothing then).
  const replicaSpans = new Map<string, { startMs: number; endMs: number }[]>();
  const replicaSince = new Map<string, number>();

  const start = (slot: string, interval: Omit<Interval, 'endMs' | 'endId' | 'endReason'> & { detail?: string }) => {
    if (open.has(slot)) return;
    open.set(slot, { ...interval, endMs: endMs, endId: null, endReason: null });
  };
  const finish = (slot: string, e: TraceEvent, reason: string) => {
    const interval = open.get(slot);
    if (!interval) return;
    open.delete(slot);
    done.push({ ...interval, endMs: e.at, endId: e.id, endReason: reason });
  };

  let seen = 0;
  for (const e of events) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    switch (e.kind) {
      case 'lease.granted': {
        // A second grant for the same key on the same node replaces the first (SET without NX).
        const slot = `lease|${e.actor}|${e.data.key}`;
        finish(slot, e, 'overwritten');
        start(slot, {
          key: `lease:${e.id}`,
          kind: 'lease',
          lane: e.actor,
          owner: e.data.owner,
          lockKey: e.data.key,
          startMs: e.at,
          startId: e.id,
        });
        break;
      }
      case 'lease.ended':
        finish(`lease|${e.actor}|${e.data.key}`, e, e.data.reason);
        break;
      case 'process.pause':
        start(`pause|${e.actor}`, {
          key: `pause:${e.id}`,
          kind: 'pause',
          lane: e.actor,
          owner: null,
          lockKey: null,
          startMs: e.at,
          startId: e.id,
        });
        break;
      case 'process.resume':
        finish(`pause|${e.actor}`, e, 'resumed');
        break;
      case 'process.crash':
        finish(`pause|${e.actor}`, e, 'crashed');
        start(`crash|${e.actor}`, {
          key: `crash:${e.id}`,
          kind: 'crash',
          lane: e.actor,
          owner: null,
          lockKey: null,
          startMs: e.at,
          startId: e.id,
        });
        break;
      case 'process.restart':
        finish(`crash|${e.actor}`, e, 'restarted');
        break;
      case 'net.partition': {
        // Every lane named in a group is cut off from the lanes in the other groups.
        const { groups, oneWay } = e.data;
        groups.forEach((group, g) => {
          const others = groups.filter((_, h) => h !== g).flat();
          const detail = oneWay
            ? g === 0
              ? `cannot send to ${others.join(', ')}`
              : `cannot hear from ${groups[0]!.join(', ')}`
            : `cut off from ${others.join(', ')}`;
          for (const actor of group)
            start(`partition|${actor}`, {
              key: `partition:${e.id}:${actor}`,
              kind: 'partition',
              lane: actor,
              owner: null,
              lockKey: null,
              startMs: e.at,
              startId: e.id,
              detail,
            });
        });
        break;
      }
      case 'net.heal':
        for (const slot of [...open.keys()]) if (slot.startsWith('partition|')) finish(slot, e, 'healed');
        break;
      case 'redis.role': {
        const since = replicaSince.get(e.actor);
        if (e.data.role === 'replica' && since === undefined) replicaSince.set(e.actor, e.at);
        if (e.data.role === 'primary' && since !== undefined) {
          replicaSince.delete(e.actor);
          replicaSpans.set(e.actor, [...(replicaSpans.get(e.actor) ?? []), { startMs: since, endMs: e.at }]);
        }
        break;
      }
      default:
        break;
    }
  }
  const beliefs = (yield* beliefSteps(events)).map((b): Interval => ({
    key: `belief:${b.startId}`,
    kind: 'belief',
    lane: b.client,
    owner: b.client,
    lockKey: b.key,
    startMs: b.startMs,
    startId: b.startId,
    endMs: b.endId === null ? endMs : b.endMs,
    endId: b.endId,
    endReason: b.endReason,
  }));
  const all = [...done, ...open.values(), ...beliefs];
  yield;
  all.sort((a, b) => a.startId - b.startId || a.kind.localeCompare(b.kind));
  for (const [node, since] of replicaSince)
    replicaSpans.set(node, [...(replicaSpans.get(node) ?? []), { startMs: since, endMs: Infinity }]);
  return [...all, ...projectAndFindStale(all, replicaSpans)];
}

/**
 * Derives, for each client, the faint copy of its leases on its own lane and the stretches of
 * belief no node backs with a lease. Those stretches are where a client acts on a lock it no
 * longer has, so the renderer draws them loudest. As in the single-lease checker, only a
 * primary grants: a replica's copy of a lease (until the deletion reaches it, say) backs
 * nothing and is not projected, unless and from when the replica is promoted.
 */
function projectAndFindStale(
  intervals: readonly Interval[],
  replicaSpans: ReadonlyMap<string, readonly { startMs: number; endMs: number }[]>,
): Interval[] {
  const derived: Interval[] = [];
  const grantsByOwner = new Map<string, { startMs: number; endMs: number }[]>();
  for (const lease of intervals) {
    if (lease.kind !== 'lease' || lease.owner === null) continue;
    const granting = subtract(lease.startMs, lease.endMs, replicaSpans.get(lease.lane) ?? []);
    granting.forEach(([startMs, endMs], i) => {
      derived.push({
        ...lease,
        key: i === 0 ? `proj:${lease.startId}` : `proj:${lease.startId}:${i}`,
        kind: 'leaseProjection',
        lane: lease.owner!,
        startMs,
        endMs,
      });
    });
    const list = grantsByOwner.get(`${lease.owner}|${lease.lockKey}`) ?? [];
    list.push(...granting.map(([startMs, endMs]) => ({ startMs, endMs })));
    grantsByOwner.set(`${lease.owner}|${lease.lockKey}`, list);
  }
  for (const belief of intervals) {
    if (belief.kind !== 'belief') continue;
    const grants = grantsByOwner.get(`${belief.owner}|${belief.lockKey}`) ?? [];
    subtract(belief.startMs, belief.endMs, grants).forEach(([startMs, endMs], i) => {
      derived.push({ ...belief, key: `stale:${belief.startId}:${i}`, kind: 'staleBelief', startMs, endMs });
    });
  }
  return derived;
}

/** [startMs, endMs] minus the union of `cover`, as sorted non-empty pieces. */
export function subtract(
  startMs: number,
  endMs: number,
  cover: readonly { startMs: number; endMs: number }[],
): [number, number][] {
  const pieces: [number, number][] = [];
  let cursor = startMs;
  const sorted = [...cover].sort((a, b) => a.startMs - b.startMs);
  for (const c of sorted) {
    if (c.endMs <= cursor) continue;
    if (c.startMs >= endMs) break;
    if (c.startMs > cursor) pieces.push([cursor, c.startMs]);
    cursor = Math.max(cursor, c.endMs);
    if (cursor >= endMs) break;
  }
  if (cursor < endMs) pieces.push([cursor, endMs]);
  return pieces;
}
