import type { TraceEvent } from '../sim/traceEvents';
import { EVENTS_PER_STEP, runSteps, type Steps } from '../sim/steps';

/** Why a client stopped believing it held a lock. */
export type BeliefEnd = 'released' | 'lost' | 'crashed';

/** A stretch of time in which one client believed it held one lock key. */
export interface Belief {
  client: string;
  key: string;
  startMs: number;
  /** The lock.acquired that began it. */
  startId: number;
  /** What that lock.acquired said: the fencing token and the lease the key got (null: no expiry). */
  token: number | null;
  ttlMs: number | null;
  /** Infinity while still held when the run ended. */
  endMs: number;
  /** The event that ended it (the release request, lock.lost, the crash), or null while held. */
  endId: number | null;
  endReason: BeliefEnd | null;
}

/**
 * Each client's beliefs, from the trace. This is the one place the rule lives; the checkers,
 * the timeline and the inspector all read beliefs through it.
 *
 * `lock.acquired` opens one (re-acquiring while already believing keeps the first). It ends at
 * `lock.lost`, at the client's crash, or when the client lets go. Letting go happens when the
 * client *sends* its release, not when it hears the answer: from that moment its code no longer
 * acts on the lock, and Redis may already have given the key to the next client while the
 * answer is still on its way back. The trace records `lock.released` on the answer, so the
 * belief ends at the last request the client sent to a lock node (a Redis node or a lock
 * service) before it: the release itself (for a reentrant lock, the release that let go of the
 * last entry; for Redlock, the releases sent to every master at once).
 */
export function beliefsOf(events: Iterable<TraceEvent>): Belief[] {
  return runSteps(beliefSteps(events));
}

/** beliefsOf, pausable every EVENTS_PER_STEP events (the timeline reads a long run a slice at a time). */
export function* beliefSteps(events: Iterable<TraceEvent>): Steps<Belief[]> {
  const done: Belief[] = [];
  const open = new Map<string, Belief>();
  const lockNodes = new Set<string>();
  // client → its latest request to a lock node.
  const lastRequest = new Map<string, { at: number; id: number }>();
  const close = (slot: string, at: number, id: number, reason: BeliefEnd) => {
    const b = open.get(slot);
    if (!b) return;
    open.delete(slot);
    done.push({ ...b, endMs: at, endId: id, endReason: reason });
  };
  let seen = 0;
  for (const e of events) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    switch (e.kind) {
      case 'run.start':
        for (const a of e.data.actors) if (a.role === 'redis' || a.role === 'service') lockNodes.add(a.id);
        break;
      case 'net.send':
        if (lockNodes.has(e.data.to)) lastRequest.set(e.actor, { at: e.at, id: e.id });
        break;
      case 'lock.acquired': {
        const slot = `${e.actor}|${e.data.key}`;
        if (!open.has(slot)) {
          open.set(slot, {
            client: e.actor,
            key: e.data.key,
            startMs: e.at,
            startId: e.id,
            token: e.data.token,
            ttlMs: e.data.ttlMs,
            endMs: Infinity,
            endId: null,
            endReason: null,
          });
        }
        break;
      }
      case 'lock.released': {
        const slot = `${e.actor}|${e.data.key}`;
        const request = lastRequest.get(e.actor);
        const started = open.get(slot)?.startId ?? Infinity;
        // A request older than the belief cannot be its release (a trace cut short, say).
        if (request && request.id > started) close(slot, request.at, request.id, 'released');
        else close(slot, e.at, e.id, 'released');
        break;
      }
      case 'lock.lost':
        close(`${e.actor}|${e.data.key}`, e.at, e.id, 'lost');
        break;
      case 'process.crash':
        for (const slot of [...open.keys()]) if (slot.startsWith(`${e.actor}|`)) close(slot, e.at, e.id, 'crashed');
        break;
      default:
        break;
    }
  }
  return [...done, ...open.values()].sort((a, b) => a.startId - b.startId);
}

/** The beliefs `client` holds just after event `cursor` (ended ones excluded), from a whole trace's beliefs. */
export function heldAfter(beliefs: readonly Belief[], cursor: number, client: string): Belief[] {
  return beliefs.filter((b) => b.client === client && b.startId <= cursor && (b.endId === null || b.endId > cursor));
}

/** Actor id → the label a learner sees, from run.start. */
export function labelsOf(events: Iterable<TraceEvent>): (id: string) => string {
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.kind === 'run.start') for (const a of e.data.actors) names.set(a.id, a.label);
    break;
  }
  return (id) => names.get(id) ?? id;
}
