import type { TraceEvent } from '../sim/traceEvents';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

interface Section {
  client: string;
  acquiredAt: number;
  /** False for a client that went ahead without the lock. */
  locked: boolean;
  /** Accepted writes, in order. */
  writes: { id: number; at: number }[];
}

/**
 * Single writer at the resource: the critical sections whose writes the resource accepted must
 * not overlap. A section runs from the moment its client believed it got the lock to its last
 * accepted write; a write made without taking the lock at all is a section of its own. When two overlap, two clients changed the resource while each believed it
 * was alone: the paused barista's double update.
 *
 * The verdict points at the moment the second writer's first accepted write landed, and at the
 * two writes that prove it.
 */
export function checkSingleWriter(events: Iterable<TraceEvent>): VerdictOf<'single-writer'> {
  const sections: Section[] = [];
  const open = new Map<string, Section>();
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.kind === 'run.start') for (const a of e.data.actors) names.set(a.id, a.label);
    if (e.kind === 'lock.acquired') {
      const section = { client: e.actor, acquiredAt: e.at, locked: true, writes: [] };
      sections.push(section);
      open.set(e.actor, section);
    }
    // A client that gave up on the lock and went ahead anyway writes in a section of its own.
    if (e.kind === 'lock.failed') open.delete(e.actor);
    if (e.kind === 'resource.write' && e.data.accepted) {
      let section = open.get(e.data.from);
      if (!section) {
        section = { client: e.data.from, acquiredAt: e.at, locked: false, writes: [] };
        sections.push(section);
        open.set(e.data.from, section);
      }
      section.writes.push({ id: e.id, at: e.at });
    }
  }

  const conflicts: { at: number; ids: [number, number]; stale: string; fresh: string; lockless: string | null }[] = [];
  const writers = sections.filter((s) => s.writes.length > 0);
  for (let i = 0; i < writers.length; i++) {
    for (let j = i + 1; j < writers.length; j++) {
      const [a, b] = [writers[i]!, writers[j]!];
      if (a.client === b.client) continue;
      const aEnd = a.writes[a.writes.length - 1]!.at;
      const bEnd = b.writes[b.writes.length - 1]!.at;
      if (a.acquiredAt > bEnd || b.acquiredAt > aEnd) continue;
      // The conflict shows once both have written: at the later of the two first writes.
      const [first, second] = a.writes[0]!.at <= b.writes[0]!.at ? [a, b] : [b, a];
      // The stale one is the section that began first: its holder kept going after another took over.
      const [stale, fresh] = a.acquiredAt <= b.acquiredAt ? [a, b] : [b, a];
      conflicts.push({
        at: second.writes[0]!.at,
        ids: [first.writes[0]!.id, second.writes[0]!.id],
        stale: stale.client,
        fresh: fresh.client,
        lockless: !a.locked ? a.client : !b.locked ? b.client : null,
      });
    }
  }
  conflicts.sort((x, y) => x.at - y.at || x.ids[1] - y.ids[1]);
  const first = conflicts[0];
  const name = (id: string) => names.get(id) ?? id;
  const text = (c: (typeof conflicts)[number]) =>
    c.lockless
      ? `${name(c.lockless)} wrote without holding the lock while ${name(c.lockless === c.stale ? c.fresh : c.stale)} held it, and both writes were accepted.`
      : `${name(c.stale)} wrote after ${name(c.fresh)} had taken the lock: both believed they held it, and both writes were accepted.`;
  return verdict('single-writer', first && { at: first.at, ids: first.ids, text: text(first) }, conflicts.length, 'Every accepted write came from one lock holder at a time.');
}

export const SINGLE_WRITER = defineInvariant({
  name: 'single-writer',
  reads: ['lock.acquired', 'lock.failed', 'resource.write'],
  appliesTo: () => true,
  check: (run) => checkSingleWriter(run.exclusive),
});
