import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

type Write = TraceEvent<'resource.write'>;

/**
 * No lost update: a read-modify-write (the inventory's "stock − 1") must be based on the latest
 * version. One based on an older read overwrote a change its writer never saw.
 */
export function checkLostUpdate(events: readonly TraceEvent[]): VerdictOf<'no-lost-update'> {
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
  return verdict(
    'no-lost-update',
    lost[0],
    lost.length,
    'Every read-modify-write was based on the latest version: no update was lost.',
  );
}

/** No double charge: each order is charged at most once (idempotent repeats charge nothing). */
export function checkDoubleCharge(events: readonly TraceEvent[]): VerdictOf<'no-double-charge'> {
  return once(
    events,
    'charge',
    'no-double-charge',
    (name, first, second) =>
      `${name(second.data.from)} charged ${second.data.order} again after ${name(first.data.from)} already had: the customer paid twice.`,
    'No order was charged more than once.',
  );
}

/** No double assignment: each order gets one driver. */
export function checkDoubleAssignment(events: readonly TraceEvent[]): VerdictOf<'no-double-assignment'> {
  return once(
    events,
    'assign',
    'no-double-assignment',
    (name, first, second) =>
      `${second.data.order} was assigned to ${name(second.data.from)} after it had already gone to ${name(first.data.from)}: two drivers set off for one order.`,
    'Every order was assigned to one driver.',
  );
}

function once<Name extends string>(
  events: readonly TraceEvent[],
  op: 'charge' | 'assign',
  invariant: Name,
  say: (name: (id: string) => string, first: Write, second: Write) => string,
  fine: string,
): VerdictOf<Name> {
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
  return verdict(invariant, repeats[0], repeats.length, fine);
}

export const NO_LOST_UPDATE = defineInvariant({
  name: 'no-lost-update',
  reads: ['resource.write'],
  appliesTo: (run) => run.options.resourceKind === 'inventory',
  check: (run) => checkLostUpdate(run.events),
});

export const NO_DOUBLE_CHARGE = defineInvariant({
  name: 'no-double-charge',
  reads: ['resource.write'],
  appliesTo: (run) => run.options.resourceKind === 'payment',
  check: (run) => checkDoubleCharge(run.events),
});

export const NO_DOUBLE_ASSIGNMENT = defineInvariant({
  name: 'no-double-assignment',
  reads: ['resource.write'],
  appliesTo: (run) => run.options.resourceKind === 'dispatch',
  check: (run) => checkDoubleAssignment(run.events),
});
