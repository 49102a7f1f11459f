import { z } from 'zod';
import type { Action } from '../../actors/action';
import type { LatencyDist } from '../../net/faults';
import type { Expect, SameType } from '../../sim/sameType';
import { simTime } from '../../sim/time';
import { actorIds } from './actorIds';
import { topologySpec } from './redisTopology';
import type { Scenario } from './schema';
import type { Path, Report } from '../diagnostic';

/**
 * Actions (`src/actors/action.ts`) as data from outside: a share link's `a` list and `npm run sim -- --actions
 * file.json`. Times are whole ms; everything is bounded by a day of simulated time, so no value
 * can overflow the kernel's clock or run a page for ever.
 *
 * ```json
 * [{ "at": 2000, "do": "pause", "target": "A", "forMs": 15000 }, { "at": 9000, "do": "heal" }]
 * ```
 */

/** A day of simulated time bounds every time: no lesson runs longer, and nothing overflows. */
export const DAY_MS = 86_400_000;

const id = z.string().min(1).max(64);
const time = z
  .number()
  .int('must be a whole number of ms')
  .nonnegative('must not be negative')
  .max(DAY_MS, `must be at most ${DAY_MS} ms (one day)`);
const spanMs = z.number().nonnegative('must not be negative').max(DAY_MS, `must be at most ${DAY_MS} ms (one day)`);
const latency = z.discriminatedUnion('dist', [
  z.strictObject({ dist: z.literal('fixed'), ms: spanMs }),
  z.strictObject({ dist: z.literal('uniform'), minMs: spanMs, maxMs: spanMs }),
  z.strictObject({ dist: z.literal('long-tail'), minMs: spanMs, medianMs: spanMs, maxMs: spanMs }),
]);
/** The moment of an action, in the kernel's time. */
const at = time.transform(simTime);
const probability = z
  .number()
  .min(0, 'must be a probability, between 0 and 1')
  .max(1, 'must be a probability, between 0 and 1');

export const actionSchema = z.discriminatedUnion('do', [
  z.strictObject({
    at,
    do: z.literal('pause'),
    target: id,
    forMs: time.positive('must be greater than zero').optional(),
  }),
  z.strictObject({ at, do: z.literal('resume'), target: id }),
  z.strictObject({ at, do: z.literal('crash'), target: id }),
  z.strictObject({ at, do: z.literal('restart'), target: id }),
  z.strictObject({
    at,
    do: z.literal('clock-jump'),
    target: id,
    byMs: z
      .number()
      .int('must be a whole number of ms')
      .min(-DAY_MS, `must be at least -${DAY_MS} ms (one day back)`)
      .max(DAY_MS, `must be at most ${DAY_MS} ms (one day ahead)`),
  }),
  z.strictObject({
    at,
    do: z.literal('partition'),
    groups: z.array(z.array(id).min(1)).min(2),
    oneWay: z.boolean().optional(),
  }),
  z.strictObject({ at, do: z.literal('heal') }),
  z.strictObject({
    at,
    do: z.literal('network'),
    from: id.optional(),
    to: id.optional(),
    latency: latency.optional(),
    loss: probability.optional(),
    duplicate: probability.optional(),
    reorder: probability.optional(),
  }),
  z.strictObject({ at, do: z.literal('command'), target: id, argv: z.array(z.string().max(1000)).min(1).max(64) }),
  z.strictObject({ at, do: z.literal('failover'), target: id }),
  z.strictObject({ at, do: z.literal('power-loss'), target: id }),
]);

/** The action type itself, for layers above the scenario (lessons) that may not import the actors. */
export type { Action };

/** The schema reads exactly an `Action`: a kind or field added to one and not the other fails `tsc`. */
type _ActionSchemaIsAction = Expect<SameType<z.output<typeof actionSchema>, Action>>;

/** At most this many actions: more than a learner clicks, few enough to replay at once. */
export const MAX_ACTIONS = 500;

export const actionsSchema = z.array(actionSchema).max(MAX_ACTIONS, `must hold at most ${MAX_ACTIONS} actions`);

/**
 * What the schema cannot see alone: every action must name actors of `scenario` (a console
 * command a Redis node, a failover a node or the Sentinel group, a power loss a node or a lock
 * service), a network change both ends of a link or neither, and latency ranges the right way up.
 */
export function checkActions(scenario: Scenario, actions: readonly Action[], report: Report): void {
  const actors = actorIds(scenario);
  const nodes = scenario.redis.nodes.map((n) => n.id);
  const group = scenario.redis.sentinels ? topologySpec(scenario.redis).sentinels?.name : undefined;
  const failoverTargets = group === undefined ? nodes : [...nodes, group];
  actions.forEach((a, i) => {
    const known = (field: Path, name: string, allowed: readonly string[], what: string) => {
      if (!allowed.includes(name))
        report([i, ...field], `'${name}' is not ${what} of scenario '${scenario.id}'`, `it has ${allowed.join(', ')}`);
    };
    switch (a.do) {
      case 'command':
        return known(['target'], a.target, nodes, 'a Redis node');
      case 'failover':
        return known(['target'], a.target, failoverTargets, 'a Redis node');
      case 'power-loss':
        // A lock service writes to disk before it answers (etcd's fsync, a database's commit): a
        // power loss would be a crash, which is the action to use.
        return known(['target'], a.target, nodes, 'a Redis node');
      case 'partition':
        return a.groups.forEach((g, j) => g.forEach((name, k) => known(['groups', j, k], name, actors, 'an actor')));
      case 'network':
        if (a.from !== undefined) known(['from'], a.from, actors, 'an actor');
        if (a.to !== undefined) known(['to'], a.to, actors, 'an actor');
        if ((a.from === undefined) !== (a.to === undefined))
          report([i], 'give both from and to (one link), or neither (every link)');
        return checkLatencyRange(a.latency, [i, 'latency'], report);
      case 'heal':
        return;
      default:
        return known(['target'], a.target, actors, 'an actor');
    }
  });
}

/** A latency range must not be upside down, and a long tail's median must lie inside it. */
function checkLatencyRange(l: LatencyDist | undefined, path: Path, report: Report): void {
  if (!l || l.dist === 'fixed') return;
  if (l.minMs > l.maxMs)
    report([...path, 'minMs'], `${l.minMs} is more than maxMs (${l.maxMs})`, 'swap them: min is the shortest delay');
  else if (l.dist === 'long-tail' && (l.medianMs < l.minMs || l.medianMs > l.maxMs))
    report([...path, 'medianMs'], `${l.medianMs} is outside ${l.minMs}..${l.maxMs}`);
}
