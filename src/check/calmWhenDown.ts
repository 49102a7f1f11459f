import { formatMs } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { labelsOf } from './beliefs';
import { defineInvariant } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/** One outage of a Redis node and the requests clients sent it meanwhile. */
interface Outage {
  node: string;
  crashId: number;
  fromMs: number;
  sends: { at: number; id: number }[];
}

/**
 * Calm when down: while a Redis node is down (from its crash to its restart, or the run's end),
 * clients send it on average at most `perSecond` requests a second. Every one of them is wasted,
 * and each holds a client up for its whole timeout; a circuit breaker cuts them to one trial per
 * cool-down. The average is over the whole outage: the few failures a breaker needs before it
 * opens are not the pile-up this is about. The proof is the crash and the first and last
 * request of the worst outage.
 */
export function checkCalmWhenDown(events: readonly TraceEvent[], perSecond: number): VerdictOf<'calm-when-down'> {
  const name = labelsOf(events);
  const redis = new Set<string>();
  const down = new Map<string, Outage>();
  const over: { at: number; ids: number[]; text: string }[] = [];
  const judge = (o: Outage, toMs: number) => {
    const seconds = Math.max(1, toMs - o.fromMs) / 1000;
    const rate = o.sends.length / seconds;
    if (rate <= perSecond) return;
    over.push({
      at: toMs,
      ids: [o.crashId, o.sends[0]!.id, o.sends[o.sends.length - 1]!.id],
      text: `While ${name(o.node)} was down (${formatMs(o.fromMs)} to ${formatMs(toMs)}), clients sent it ${o.sends.length} requests, ${rate.toFixed(1)} a second, more than the bound of ${perSecond}: they pile on instead of failing fast.`,
    });
  };
  for (const e of events) {
    if (e.kind === 'run.start') {
      for (const a of e.data.actors) if (a.role === 'redis') redis.add(a.id);
    } else if (e.kind === 'process.crash' && redis.has(e.actor))
      down.set(e.actor, { node: e.actor, crashId: e.id, fromMs: e.at, sends: [] });
    else if (e.kind === 'process.restart' && down.has(e.actor)) {
      judge(down.get(e.actor)!, e.at);
      down.delete(e.actor);
    } else if (e.kind === 'net.send' && !redis.has(e.actor)) down.get(e.data.to)?.sends.push({ at: e.at, id: e.id });
  }
  const endMs = events.length > 0 ? events[events.length - 1]!.at : 0;
  for (const o of down.values()) judge(o, endMs);
  over.sort((x, y) => x.at - y.at);
  const o = over[0];
  return verdict(
    'calm-when-down',
    o,
    over.length,
    `Whenever a Redis node was down, clients sent it at most ${perSecond} requests a second.`,
  );
}

/** calm-when-down's bound when the scenario gives none: a few tries a second is already a lot against a dead server. */
const DEFAULT_DOWN_ATTEMPTS_PER_SECOND = 5;

/** A Redis node's outage ends at its restart. */
export const CALM_WHEN_DOWN = defineInvariant({
  name: 'calm-when-down',
  reads: ['net.send', 'process.crash', 'process.restart'],
  appliesTo: (run) => run.patterns.breakers,
  check: (run) => checkCalmWhenDown(run.events, run.options.downAttemptsPerSecond ?? DEFAULT_DOWN_ATTEMPTS_PER_SECOND),
});
