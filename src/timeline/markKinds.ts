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
  const kinds = new Set<MarkKind>(['playhead']);
  for (const i of model.intervals) if (i.startId <= cursorId) kinds.add(i.kind);
  for (const w of model.writes) if (w.id <= cursorId) kinds.add(w.accepted ? 'writeAccepted' : 'writeRejected');
  for (const m of model.messages) {
    // Sent by the playhead: drawn (up to the playhead) in its fate's style.
    if (m.sendId > cursorId) continue;
    if (m.channel === 'request') kinds.add('request');
    else if (m.fate === 'dropped') kinds.add(m.dropReason === 'crashed' ? 'messageToCrashed' : 'messageLost');
    else if (m.fate === 'duplicate') kinds.add('messageDuplicate');
    else if (m.fate === 'inFlight') kinds.add('messageInFlight');
    else kinds.add('message');
  }
  for (const p of model.points) if (p.id <= cursorId) kinds.add(p.kind);
  if (model.violations.some((v) => Math.max(-1, ...v.eventIds) <= cursorId)) kinds.add('verdict');
  return kinds;
}
