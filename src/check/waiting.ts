import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant, WAIT_KINDS } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/** One stretch of a client's waiting: from its first request until it got the lock, gave up or crashed. */
interface Wait {
  client: string;
  key: string;
  startMs: number;
  /** The request that began it. */
  startId: number;
}

/**
 * Calls `served(winner, waiting)` at each acquisition with the winner's wait and every other
 * wait still open at that moment, and returns the waits still open at the end.
 */
function walkWaits(
  events: readonly TraceEvent[],
  served: (winner: Wait, at: number, acquiredId: number, others: readonly Wait[]) => void,
): Wait[] {
  const open = new Map<string, Wait>();
  for (const e of events) {
    if (e.kind === 'lock.request') {
      const wait = open.get(e.actor);
      if (wait === undefined) open.set(e.actor, { client: e.actor, key: e.data.key, startMs: e.at, startId: e.id });
      else wait.key = e.data.key;
    } else if (e.kind === 'lock.acquired') {
      const wait = open.get(e.actor);
      if (wait === undefined) continue;
      open.delete(e.actor);
      served(wait, e.at, e.id, [...open.values()]);
    } else if (e.kind === 'lock.failed' || e.kind === 'process.crash') {
      open.delete(e.actor);
    }
  }
  return [...open.values()];
}

/**
 * Served in request order (a fair lock): when a client gets `key`, nobody still waiting for it
 * asked first. "Asked" is when the client sent its first request; with a variable network a
 * later request can reach Redis first, and Redis can only queue what it has received. The
 * proof is the overtaken client's first request, the winner's, and the acquisition that overtook it.
 */
export function checkServedInOrder(
  events: readonly TraceEvent[],
  keys: ReadonlySet<string> | null,
): VerdictOf<'served-in-order'> {
  const name = labelsOf(events);
  const overtakes: { at: number; ids: number[]; text: string }[] = [];
  walkWaits(events, (winner, at, acquiredId, others) => {
    if (keys !== null && !keys.has(winner.key)) return;
    for (const w of others) {
      if (w.key !== winner.key || w.startId > winner.startId) continue;
      overtakes.push({
        at,
        ids: [w.startId, winner.startId, acquiredId].sort((x, y) => x - y),
        text: `${name(winner.client)} got “${winner.key}” (it asked at ${formatMs(winner.startMs)}) while ${name(w.client)}, who had asked first (at ${formatMs(w.startMs)}), was still waiting.`,
      });
    }
  });
  const o = overtakes[0];
  return verdict('served-in-order', o, overtakes.length, 'Every client got the lock in the order it asked for it.');
}

/**
 * Bounded wait (no starvation): no client waits longer than `maxWaitMs` for a lock, counted from
 * its first request until it gets the lock, gives up or crashes (or the run ends), less the time
 * the client itself was paused (a frozen client cannot ask, so nobody starved it). Unlike
 * progress, others getting the lock meanwhile does not help: that is what starving looks like.
 * The proof is the first request of the longest-starved wait.
 */
export function checkBoundedWait(events: readonly TraceEvent[], maxWaitMs: number): VerdictOf<'bounded-wait'> {
  const name = labelsOf(events);
  const endMs = events.length > 0 ? events[events.length - 1]!.at : 0;
  const long: { at: number; ids: number[]; text: string }[] = [];
  const paused = pausesOf(events, endMs);
  const judge = (w: Wait, until: number, endId: number | null, got: boolean) => {
    // A client frozen by its own pause is not being starved: only the time it could have asked counts.
    if (until - w.startMs - pausedWithin(paused.get(w.client), w.startMs, until) <= maxWaitMs) return;
    const waited = got
      ? `waited ${formatMs(until - w.startMs)} before it got “${w.key}”`
      : `was still waiting for “${w.key}” after ${formatMs(until - w.startMs)}`;
    long.push({
      at: w.startMs + maxWaitMs,
      ids: endId === null ? [w.startId] : [w.startId, endId],
      text: `${name(w.client)} ${waited}, longer than the bound of ${formatMs(maxWaitMs)}: it starved while others were served.`,
    });
  };
  const open = walkWaits(events, (winner, at, acquiredId) => judge(winner, at, acquiredId, true));
  for (const w of open) judge(w, endMs, null, false);
  long.sort((x, y) => x.at - y.at);
  const l = long[0];
  return verdict('bounded-wait', l, long.length, `No client waited longer than ${formatMs(maxWaitMs)} for a lock.`);
}

/** Each process's pauses, as [from, to) stretches (a pause that is still on runs to the end). */
function pausesOf(events: readonly TraceEvent[], endMs: number): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  const since = new Map<string, number>();
  for (const e of events) {
    // A second pause while paused only moves the resumption: it does not start a new stretch.
    if (e.kind === 'process.pause' && !since.has(e.actor)) since.set(e.actor, e.at);
    if ((e.kind === 'process.resume' || e.kind === 'process.crash') && since.has(e.actor)) {
      out.set(e.actor, [...(out.get(e.actor) ?? []), [since.get(e.actor)!, e.at]]);
      since.delete(e.actor);
    }
  }
  for (const [actor, from] of since) out.set(actor, [...(out.get(actor) ?? []), [from, endMs]]);
  return out;
}

/** How much of [fromMs, toMs) falls inside the given stretches. */
function pausedWithin(stretches: readonly [number, number][] | undefined, fromMs: number, toMs: number): number {
  let total = 0;
  for (const [a, b] of stretches ?? []) total += Math.max(0, Math.min(b, toMs) - Math.max(a, fromMs));
  return total;
}

/** Asked of a run without a fair lock (to show an unfair one), it judges every key. */
export const SERVED_IN_ORDER = defineInvariant({
  name: 'served-in-order',
  reads: WAIT_KINDS,
  appliesTo: (run) => run.patterns.fairKeys.size > 0,
  check: (run) => checkServedInOrder(run.events, run.patterns.fairKeys.size > 0 ? run.patterns.fairKeys : null),
});

/** A client's own pauses do not count as waiting; without a limit of its own, progress's is used. */
export const BOUNDED_WAIT = defineInvariant({
  name: 'bounded-wait',
  reads: [...WAIT_KINDS, 'process.pause', 'process.resume'],
  appliesTo: (run) => (run.options.maxWaitMs ?? null) !== null,
  check: (run) => checkBoundedWait(run.events, run.options.maxWaitMs ?? run.options.progressWithinMs),
});
