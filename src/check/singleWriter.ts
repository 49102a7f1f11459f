import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

interface Section {
  client: string;
  /** When it began: the client believed it got the lock, or (without the lock) its first accepted write. */
  startedAt: number;
  /** The event that began it: the acquisition, or the first write of a client that went ahead without the lock. */
  startId: number;
  /** False for a client that went ahead without the lock. */
  locked: boolean;
  /** Accepted writes, in order. */
  writes: { id: number; at: number }[];
}

interface Conflict {
  /** When both writes had landed: the moment the break shows. */
  at: number;
  /** The later section's start, the earlier section's write inside it, and the later section's first write. */
  later: Section;
  earlier: Section;
  earlierWrite: { id: number; at: number };
  laterWrite: { id: number; at: number };
}

/**
 * Single writer at the resource: the critical sections whose writes the resource accepted must
 * not overlap. A section runs from the moment its client believed it got the lock to its last
 * accepted write; a write made without taking the lock at all is a section of its own. When two
 * overlap, two clients changed the resource while each believed it was alone: the paused
 * barista's double update.
 *
 * The proof is three events: the later section's start (B takes the lock), the earlier section's
 * first write after that (A, still believing it holds the lock), and the later section's first
 * write. The verdict is at the moment both writes had landed, and its sentence names each of the
 * three with its own time, so what it says is what its evidence links show.
 */
export function checkSingleWriter(events: Iterable<TraceEvent>): VerdictOf<'single-writer'> {
  const sections: Section[] = [];
  const open = new Map<string, Section>();
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.kind === 'run.start') for (const a of e.data.actors) names.set(a.id, a.label);
    if (e.kind === 'lock.acquired') {
      const section = { client: e.actor, startedAt: e.at, startId: e.id, locked: true, writes: [] };
      sections.push(section);
      open.set(e.actor, section);
    }
    // A client that gave up on the lock and went ahead anyway writes in a section of its own.
    if (e.kind === 'lock.failed') open.delete(e.actor);
    if (e.kind === 'resource.write' && e.data.accepted) {
      let section = open.get(e.data.from);
      if (!section) {
        section = { client: e.data.from, startedAt: e.at, startId: e.id, locked: false, writes: [] };
        sections.push(section);
        open.set(e.data.from, section);
      }
      section.writes.push({ id: e.id, at: e.at });
    }
  }

  const conflicts: Conflict[] = [];
  const writers = sections.filter((s) => s.writes.length > 0);
  for (let i = 0; i < writers.length; i++) {
    for (let j = i + 1; j < writers.length; j++) {
      if (writers[i]!.client === writers[j]!.client) continue;
      const [earlier, later] =
        writers[i]!.startedAt <= writers[j]!.startedAt ? [writers[i]!, writers[j]!] : [writers[j]!, writers[i]!];
      // Overlap: the earlier section still wrote once the later one had begun.
      const earlierWrite = earlier.writes.find((w) => w.at >= later.startedAt);
      if (!earlierWrite) continue;
      const laterWrite = later.writes[0]!;
      conflicts.push({ at: Math.max(earlierWrite.at, laterWrite.at), earlier, later, earlierWrite, laterWrite });
    }
  }
  conflicts.sort(
    (x, y) =>
      x.at - y.at || Math.max(x.earlierWrite.id, x.laterWrite.id) - Math.max(y.earlierWrite.id, y.laterWrite.id),
  );
  const first = conflicts[0];
  const name = (id: string) => names.get(id) ?? id;
  const proof = (c: Conflict) =>
    [...new Set([c.later.startId, c.earlierWrite.id, c.laterWrite.id])].sort((x, y) => x - y);
  return verdict(
    'single-writer',
    first && { at: first.at, ids: proof(first), text: sentence(first, name) },
    conflicts.length,
    'Every accepted write came from one lock holder at a time.',
  );
}

/** The break in words, each actor with the time of its own event in the proof. */
function sentence({ earlier, later, earlierWrite, laterWrite }: Conflict, name: (id: string) => string): string {
  const [e, l] = [name(earlier.client), name(later.client)];
  const writes = `${e} wrote at ${formatMs(earlierWrite.at)} and ${l} at ${formatMs(laterWrite.at)}`;
  if (!later.locked)
    return `${l} wrote without holding the lock while ${e} held it; ${writes}, and both writes were accepted.`;
  if (!earlier.locked)
    return `${e} wrote without holding the lock while ${l} held it (taken at ${formatMs(later.startedAt)}); ${writes}, and both writes were accepted.`;
  return `${l} took the lock at ${formatMs(later.startedAt)} while ${e} still believed it held it; ${writes}, and both writes were accepted.`;
}

export const SINGLE_WRITER = defineInvariant({
  name: 'single-writer',
  reads: ['lock.acquired', 'lock.failed', 'resource.write'],
  appliesTo: () => true,
  check: (run) => checkSingleWriter(run.exclusive),
});
