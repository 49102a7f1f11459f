import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant, WAIT_KINDS } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/**
 * Progress: while some client is waiting for a lock, somebody must make progress (take a lock
 * or get a write accepted) at least every `withinMs`. A longer stall is a deadlock (A holds x
 * and waits for y, B holds y and waits for x), a livelock, or a holder that never lets go.
 */
export function checkProgress(events: readonly TraceEvent[], withinMs: number): VerdictOf<'progress'> {
  const name = labelsOf(events);
  const waiting = new Map<string, { since: number; id: number; key: string }>();
  let lastProgress: { at: number; id: number } | null = null;
  type Stall = { at: number; ids: number[]; text: string };
  const found: { stall: Stall | null } = { stall: null };
  let stalls = 0;
  let inStall = false;

  const check = (now: number) => {
    if (waiting.size === 0) return;
    // Events come in time order and a waiter is only ever added at the end, so the map's first
    // entry is the one waiting longest (the first of them, on a tie). This runs at every event.
    const oldest = waiting.values().next().value!;
    const from = Math.max(lastProgress?.at ?? 0, oldest.since);
    if (now - from <= withinMs || inStall) return;
    inStall = true;
    stalls++;
    const keys = [...waiting].map(([c, w]) => `${name(c)} for “${w.key}”`).join(', ');
    found.stall ??= {
      at: from + withinMs,
      // The proof: the last progress before the stall (if it began there) and each waiter's request, as the sentence names them.
      ids: [
        ...(lastProgress && lastProgress.at >= oldest.since ? [lastProgress.id] : []),
        ...[...waiting.values()].map((w) => w.id),
      ].sort((a, b) => a - b),
      text: `Nobody took a lock or wrote for more than ${formatMs(withinMs)} while clients waited (${keys}): a deadlock, a livelock or a holder that never lets go.`,
    };
  };

  for (const e of events) {
    check(e.at);
    if (e.kind === 'lock.request' && !waiting.has(e.actor))
      waiting.set(e.actor, { since: e.at, id: e.id, key: e.data.key });
    else if (e.kind === 'lock.request') waiting.get(e.actor)!.key = e.data.key;
    const progress = e.kind === 'lock.acquired' || (e.kind === 'resource.write' && e.data.accepted);
    if (progress) {
      lastProgress = { at: e.at, id: e.id };
      inStall = false;
    }
    if (e.kind === 'lock.acquired' || e.kind === 'lock.failed' || e.kind === 'process.crash') waiting.delete(e.actor);
  }
  const stall = found.stall;
  return verdict(
    'progress',
    stall,
    stalls,
    `Whenever a client waited, someone made progress within ${formatMs(withinMs)}.`,
  );
}

export const PROGRESS = defineInvariant({
  name: 'progress',
  reads: [...WAIT_KINDS, 'resource.write'],
  appliesTo: () => true,
  check: (run) => checkProgress(run.events, run.options.progressWithinMs),
});
