import type { TimelineModel } from './modelTypes';

/**
 * Every kind of mark the timeline draws, one name each: what a legend must explain. Two marks
 * that look different have different kinds (a message lost in the network and one that reached
 * a crashed process are both crossed, in different places and colours).
 */
export type MarkKind =
  | 'lease'
  | 'leaseProjection'
  | 'belief'
  | 'staleBelief'
  | 'pause'
  | 'crash'
  | 'partition'
  | 'writeAccepted'
  | 'writeRejected'
  | 'message'
  | 'messageDuplicate'
  | 'messageInFlight'
  | 'request'
  | 'messageLost'
  | 'messageToCrashed'
  | 'state'
  | 'expiry'
  | 'replicate'
  | 'clockJump'
  | 'restart'
  | 'timeout'
  | 'late'
  | 'sync'
  | 'role'
  | 'sentinel'
  | 'verdict'
  | 'playhead';

/**
 * The kinds of mark a model draws (the playhead always), with events up to `cursorId` happened:
 * a legend listing the marks still to come ("Write rejected") would tell the run's end before
 * the learner has played it.
 */
export function markKindsOf(model: TimelineModel, cursorId = Infinity): Set<MarkKind> {
  return kindsDrawnBy(firstDrawn(model), cursorId);
}

/** The kinds in `first` drawn by `cursorId` (cheap: one test per kind, for every playhead move). */
export function kindsDrawnBy(first: ReadonlyMap<MarkKind, number>, cursorId: number): Set<MarkKind> {
  const kinds = new Set<MarkKind>();
  for (const [kind, id] of first) if (id <= cursorId) kinds.add(kind);
  return kinds;
}

/** For each kind of mark the model draws, the id of the event from which it is drawn first (read once per model). */
export function firstDrawn(model: TimelineModel): Map<MarkKind, number> {
  const first = new Map<MarkKind, number>([['playhead', -Infinity]]);
  const see = (kind: MarkKind, id: number) => {
    if (id < (first.get(kind) ?? Infinity)) first.set(kind, id);
  };
  for (const i of model.intervals) see(i.kind, i.startId);
  for (const w of model.writes) see(w.accepted ? 'writeAccepted' : 'writeRejected', w.id);
  for (const m of model.messages) {
    // Drawn from its send (up to the playhead) in its fate's style.
    if (m.channel === 'request') see('request', m.sendId);
    else if (m.fate === 'dropped') see(m.dropReason === 'crashed' ? 'messageToCrashed' : 'messageLost', m.sendId);
    else if (m.fate === 'duplicate') see('messageDuplicate', m.sendId);
    else if (m.fate === 'inFlight') see('messageInFlight', m.sendId);
    else see('message', m.sendId);
  }
  for (const p of model.points) see(p.kind, p.id);
  for (const v of model.violations) see('verdict', Math.max(-1, ...v.eventIds));
  return first;
}
