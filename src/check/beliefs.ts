import type { TraceEvent } from '../sim/traceEvents';

/** A stretch of time in which one client believed it held one lock key. */
export interface Belief {
  client: string;
  key: string;
  startMs: number;
  /** The lock.acquired that began it. */
  startId: number;
  /** Infinity while still held when the run ended. */
  endMs: number;
}

/**
 * Each client's beliefs, from the trace: `lock.acquired` opens one (re-acquiring while already
 * believing keeps the first), `lock.released`, `lock.lost` or the client's crash closes it.
 */
export function beliefsOf(events: Iterable<TraceEvent>): Belief[] {
  const done: Belief[] = [];
  const open = new Map<string, Belief>();
  const close = (slot: string, at: number) => {
    const b = open.get(slot);
    if (!b) return;
    open.delete(slot);
    done.push({ ...b, endMs: at });
  };
  for (const e of events) {
    if (e.kind === 'lock.acquired') {
      const slot = `${e.actor}|${e.data.key}`;
      if (!open.has(slot)) open.set(slot, { client: e.actor, key: e.data.key, startMs: e.at, startId: e.id, endMs: Infinity });
    } else if (e.kind === 'lock.released' || e.kind === 'lock.lost') {
      close(`${e.actor}|${e.data.key}`, e.at);
    } else if (e.kind === 'process.crash') {
      for (const slot of [...open.keys()]) if (slot.startsWith(`${e.actor}|`)) close(slot, e.at);
    }
  }
  return [...done, ...open.values()].sort((a, b) => a.startId - b.startId);
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
