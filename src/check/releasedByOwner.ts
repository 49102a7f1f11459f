import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { beliefsOf, labelsOf } from './beliefs';
import { defineInvariant, BELIEF_KINDS } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/**
 * Released by its owner: a lease is deleted only by the client that holds it. A lease may
 * expire, or be lost with a node's memory, but a deletion while its owner still believes it
 * holds it (it has not sent its release) came from somebody else: a plain `DEL` from a client
 * whose own lease had run out, a shared value that a release script mistook for its own, or a
 * `DEL`/`FLUSHALL` typed at a console. That is the bug a token-checked release exists to
 * prevent, and the start of a cascade: the next client walks in while the owner still works.
 *
 * The proof is the deleted lease's grant and its end; when the trace shows whose release
 * deleted a key just then, the explanation names them.
 */
export function checkReleasedByOwner(events: readonly TraceEvent[]): VerdictOf<'released-by-owner'> {
  const name = labelsOf(events);
  const beliefs = beliefsOf(events);
  const granted = new Map<string, number>();
  // sender|receiver → messages sent: what a client has asked a node, and what the node answered it.
  const sent = new Map<string, number>();
  const count = (from: string, to: string) => sent.get(`${from}|${to}`) ?? 0;
  const breaks: { at: number; ids: number[]; text: string }[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'net.send') sent.set(`${e.actor}|${e.data.to}`, count(e.actor, e.data.to) + 1);
    if (e.kind === 'lease.granted') granted.set(`${e.actor}|${e.data.key}`, e.id);
    if (e.kind !== 'lease.ended' || e.data.reason !== 'deleted') continue;
    const { key, owner } = e.data;
    const holding = beliefs.some(
      (b) => b.client === owner && b.key === key && b.startId < e.id && b.startMs <= e.at && e.at < b.endMs,
    );
    // A request of the owner's still unanswered may be its own release, late (it timed out, or
    // the node was paused): the owner still believes, but it asked for this. (A request lost
    // in a partition stays unanswered too, and then excuses a deletion it did not cause.)
    const ownRequestOut = count(owner, e.actor) > count(e.actor, owner);
    if (!holding || ownRequestOut) continue;
    const by = deleterAfter(events, i, key, owner);
    const grant = granted.get(`${e.actor}|${key}`);
    breaks.push({
      at: e.at,
      ids: grant === undefined ? [e.id] : [grant, e.id],
      text: `${name(owner)}'s lease on “${key}” was deleted at ${formatMs(e.at)} while ${name(owner)} still held it${by === null ? '' : `, by ${name(by)}'s release`}: a release that did not check whose lock it was.`,
    });
  }
  const b = breaks[0];
  return verdict('released-by-owner', b, breaks.length, 'Every lease that was deleted was deleted by its own holder.');
}

/** The other client whose release, answered next, deleted `key` (its reply follows the deletion). */
function deleterAfter(events: readonly TraceEvent[], from: number, key: string, owner: string): string | null {
  for (let j = from + 1; j < events.length; j++) {
    const e = events[j]!;
    if (e.kind === 'lock.released' && e.data.key === key && e.data.deleted) return e.actor === owner ? null : e.actor;
    if (e.kind === 'lease.granted' && e.data.key === key) return null;
  }
  return null;
}

/** The review clinic's: judged when a scenario (or the explorer) asks for it. */
export const RELEASED_BY_OWNER = defineInvariant({
  name: 'released-by-owner',
  reads: [...BELIEF_KINDS, 'lease.granted', 'lease.ended'],
  appliesTo: () => false,
  check: (run) => checkReleasedByOwner(run.exclusive),
});
