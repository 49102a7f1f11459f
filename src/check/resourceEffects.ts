import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import type { Verdict } from './verdict';

type Write = TraceEvent<'resource.write'>;

/**
 * No lost update: a read-modify-write (the inventory's "stock − 1") must be based on the latest
 * version. One based on an older read overwrote a change its writer never saw.
 */
export function checkLostUpdate(events: readonly TraceEvent[]): Verdict {
  const name = labelsOf(events);
  const byVersion = new Map<string, Write>();
  const lost: { at: number; ids: number[]; text: string }[] = [];
  for (const e of events) {
    if (e.kind !== 'resource.write' || e.data.op !== 'decrement' || !e.data.accepted) continue;
    const { version, readVersion } = e.data;
    if (version === undefined || readVersion === undefined) continue;
    byVersion.set(`${e.actor}|${version}`, e);
    if (readVersion === version - 1) continue;
    const overwritten = byVersion.get(`${e.actor}|${readVersion + 1}`);
    lost.push({
      at: e.at,
      ids: overwritten ? [overwritten.id, e.id] : [e.id],
      text: `${name(e.data.from)} wrote ${e.data.value} from a read of version ${readVersion}, overwriting ${overwritten ? `${name(overwritten.data.from)}'s` : 'a newer'} change it never saw: ${version - 1 - readVersion} update(s) lost.`,
    });
  }
  return verdict('no-lost-update', lost, 'Every read-modify-write was based on the latest version: no update was lost.');
}

/** No double charge: each order is charged at most once (idempotent repeats charge nothing). */
export function checkDoubleCharge(events: readonly TraceEvent[]): Verdict {
  return once(events, 'charge', 'no-double-charge', (name, first, second) =>
    `${name(second.data.from)} charged ${second.data.order} again after ${name(first.data.from)} already had: the customer paid twice.`,
    'No order was charged more than once.');
}

/** No double assignment: each order gets one driver. */
export function checkDoubleAssignment(events: readonly TraceEvent[]): Verdict {
  return once(events, 'assign', 'no-double-assignment', (name, first, second) =>
    `${second.data.order} was assigned to ${name(second.data.from)} after it had already gone to ${name(first.data.from)}: two drivers set off for one order.`,
    'Every order was assigned to one driver.');
}

function once(
  events: readonly TraceEvent[],
  op: 'charge' | 'assign',
  invariant: string,
  say: (name: (id: string) => string, first: Write, second: Write) => string,
  fine: string,
): Verdict {
  const name = labelsOf(events);
  const firsts = new Map<string, Write>();
  const repeats: { at: number; ids: number[]; text: string }[] = [];
  for (const e of events) {
    if (e.kind !== 'resource.write' || e.data.op !== op || !e.data.accepted) continue;
    const order = `${e.actor}|${e.data.order ?? ''}`;
    const first = firsts.get(order);
    if (!first) firsts.set(order, e);
    else repeats.push({ at: e.at, ids: [first.id, e.id], text: say(name, first, e) });
  }
  return verdict(invariant, repeats, fine);
}

function verdict(invariant: string, breaks: { at: number; ids: number[]; text: string }[], fine: string): Verdict {
  const b = breaks[0];
  return { invariant, holds: !b, atMs: b?.at ?? null, eventIds: b?.ids ?? [], explanation: b?.text ?? fine, violations: breaks.length };
}
