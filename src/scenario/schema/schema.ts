import { z } from 'zod';
import type { ActionKind } from '../../actors/action';
import { RECIPES, type RecipeName } from '../../actors/recipes/catalog';
import { RESOURCE_KINDS } from '../../actors/resources/resource';
import type { Expect, SameType } from '../../sim/sameType';
import { durationMs, nonNegativeDurationMs, positiveDurationMs } from './duration';
import { redisActions, redisSection } from './redisSchema';
import { dbLockSection, leaseServiceSection } from './serviceSchema';
import { client } from './clientSchema';
import { faults, network, partition } from './networkSchema';
import { actorId } from './ids';
import { INVARIANTS } from '../../check/invariants';

/**
 * The scenario file format: what an instructor writes in a ```scenario block or in
 * lessons/scenarios/*.yaml. Every object is strict, so a typo is an error with a
 * "did you mean" hint rather than a silently ignored key. README "Scenario files" documents
 * every key with an example.
 */

const id = actorId;

export { RECIPES, RESOURCE_KINDS };
export type { RecipeName };

export { INVARIANTS, type InvariantName } from '../../check/invariants';

export const CONTROLS = [
  'pause',
  'resume',
  'crash',
  'restart',
  'clock-jump',
  'toggle-fencing',
  'partition',
  'heal',
  'network',
  'failover',
  'power-loss',
] as const;
export type ControlName = (typeof CONTROLS)[number];

/** A control is a learner's button: one per kind of action (a console command has the console), and the fencing switch. */
type _ControlsAreActions = Expect<SameType<ControlName, Exclude<ActionKind, 'command'> | 'toggle-fencing'>>;

const resource = z.strictObject({
  id: id.meta({ description: "The resource's name on its lane.", examples: ['espresso'] }),
  label: z
    .string()
    .optional()
    .meta({ description: 'The name on its lane, if not the id.', examples: ['Espresso machine'] }),
  kind: z
    .enum(RESOURCE_KINDS)
    .default('store')
    .meta({ description: 'What it is: a store, a payment provider, a row and so on.', examples: ['store'] }),
  fencing: z
    .boolean()
    .default(false)
    .meta({ description: 'true: reject writes whose fencing token is lower than one already seen.', examples: [true] }),
  /**
   * How a fenced store or row compares a write's token with the highest seen: `lenient` accepts
   * an equal one (`fence_token <= :token`: a holder may write again, and so may a repeated token),
   * `strict` only a larger one (`fence_token < :token`: one write per token).
   */
  fenceCompare: z
    .enum(['lenient', 'strict'])
    .default('lenient')
    .meta({
      description: '`lenient` accepts a token equal to the highest seen, `strict` only a larger one.',
      examples: ['strict'],
    }),
  stock: z
    .number()
    .int()
    .nonnegative()
    .default(10)
    .meta({ description: 'inventory: the starting stock.', examples: [10] }),
  order: z
    .string()
    .min(1)
    .default('order-42')
    .meta({ description: 'payment, dispatch: the order at stake.', examples: ['order-42'] }),
  idempotencyKeys: z
    .boolean()
    .default(false)
    .meta({ description: 'payment: the provider honours idempotency keys.', examples: [true] }),
  conditional: z
    .boolean()
    .default(false)
    .meta({ description: 'dispatch: assign only if the order is still NEW.', examples: [true] }),
});

/** When a script step happens, in the run's virtual time. */
const stepAt = nonNegativeDurationMs.meta({
  description: "When it happens, in the run's virtual time from the start.",
  examples: ['2s'],
});
const target = {
  at: stepAt,
  target: id.meta({ description: 'The id of the client or Redis node it happens to.', examples: ['A'] }),
};
/** A script step's kind, described for an editor's hover. */
const act = <K extends string>(kind: K, description: string) => z.literal(kind).meta({ description, examples: [kind] });

/**
 * One entry of a scenario's script: an `Action` (`src/actors/action.ts`) in the notation a
 * scenario file uses (durations as `2s`, `for:` and `by:`, the network's latency notation).
 * `toAction` turns it into the action itself.
 */
export const scriptAction = z.discriminatedUnion('do', [
  z.strictObject({
    ...target,
    do: act('pause', 'pause: the target freezes, as in a long GC pause.'),
    for: positiveDurationMs.optional().meta({
      description: "How long the pause lasts; left out, until a `resume` step or a learner's Resume.",
      examples: ['15s'],
    }),
  }),
  z.strictObject({ ...target, do: act('resume', 'resume: a paused target runs again.') }),
  z.strictObject({ ...target, do: act('crash', 'crash: the target stops, losing what it held in memory.') }),
  z.strictObject({
    ...target,
    do: act('restart', 'restart: a crashed target starts again, empty or from its persistence.'),
  }),
  z.strictObject({
    ...target,
    do: act('clock-jump', "clock-jump: the target's wall clock steps."),
    by: durationMs.meta({
      description: 'How far the clock steps: forward, or back with a minus sign.',
      examples: ['20s'],
    }),
  }),
  z.strictObject({
    at: stepAt,
    do: act('partition', 'partition: the network splits into groups that cannot reach each other.'),
    ...partition.shape,
  }),
  z.strictObject({ at: stepAt, do: act('heal', 'heal: every partition ends.') }),
  z.strictObject({
    at: stepAt,
    do: act('network', 'network: change delay, loss, duplication or reordering, on one link or everywhere.'),
    from: id.optional().meta({
      description: 'The sending end of the link to change; with `to`, or leave both out to change every link.',
      examples: ['A'],
    }),
    to: id.optional().meta({
      description: 'The receiving end of the link to change; with `from`, or leave both out to change every link.',
      examples: ['espresso'],
    }),
    ...faults,
  }),
  /** A redis-cli command typed into the playground's console, run on one Redis node. */
  z.strictObject({
    ...target,
    do: act('command', 'command: a redis-cli command run on one Redis node, as if typed in the console.'),
    argv: z
      .array(z.string())
      .min(1)
      .meta({ description: 'The command and its arguments, one word each.', examples: [['DEL', 'lock:espresso']] }),
  }),
  ...redisActions,
]);

/** The script knows every kind of action and no other: a kind added to one and not the other fails `tsc`. */
type _ScriptKindsAreActionKinds = Expect<SameType<z.output<typeof scriptAction>['do'], ActionKind>>;

/**
 * What a scenario shows when nobody touches it. `invariant: all` with `outcome: holds` says the
 * quiet run is fine: every invariant the run checks must hold, except those given their own
 * entry (`{ invariant: single-holder, outcome: violated }` beside it), so a checker that starts
 * reporting something new cannot slip past a lesson that promises a calm run.
 */
const expectation = z
  .strictObject({
    invariant: z.enum([...INVARIANTS, 'all']).meta({
      description:
        'The invariant the entry is about, or `all` for every invariant the run checks that has no entry of its own.',
      examples: ['single-writer'],
    }),
    outcome: z.enum(['holds', 'violated']).meta({
      description: 'What the quiet run must show for it: `holds` or `violated` (`all` goes with `holds` only).',
      examples: ['violated'],
    }),
  })
  .refine((e) => e.invariant !== 'all' || e.outcome === 'holds', {
    message: "'all' goes with outcome: holds (list each invariant the run breaks on its own)",
    path: ['outcome'],
  });

export const scenarioSchema = z.strictObject({
  id: id.meta({
    description: "The scenario's name, unique in the lesson; `lesson.md#id` runs it from the command line.",
    examples: ['paused-barista'],
  }),
  title: z
    .string()
    .min(1)
    .meta({ description: 'The heading above the player.', examples: ['The paused barista'] }),
  seed: z
    .number()
    .int()
    .nonnegative()
    .default(1)
    .meta({ description: 'Picks one run out of many: the same seed gives the same run every time.', examples: [7] }),
  horizon: positiveDurationMs
    .default(60_000)
    .meta({ description: 'When the run stops even if someone is still busy: `60s`, `500ms`.', examples: ['60s'] }),
  view: z
    .strictObject({
      from: nonNegativeDurationMs.meta({
        description: 'Where the first view starts, in run time: `0ms`, `10s`.',
        examples: ['0ms'],
      }),
      to: positiveDurationMs.meta({
        description: 'Where the first view ends, after `from`: `60ms`, `20s`.',
        examples: ['60ms'],
      }),
    })
    .refine((v) => v.from < v.to, { message: "the view's `to` must come after its `from`", path: ['to'] })
    .optional()
    .meta({
      description:
        'The stretch of the run the player first shows, for a run whose action sits in a small part of it (the learner can still zoom out: 0 fits the whole run). Left out, the player opens on the whole run.',
      examples: [{ from: '0ms', to: '60ms' }],
    }),
  redis: redisSection.prefault({ nodes: [{ id: 'r1' }] }).meta({
    description: 'The Redis nodes, their replication and persistence.',
    examples: [{ nodes: [{ id: 'r1' }] }],
  }),
  network: network.default({ reorderDelay: 50, links: [], partitions: [] }).meta({
    description: 'Delay, loss, duplication and partitions between every actor.',
    examples: [{ latency: '5ms', loss: 0.01 }],
  }),
  clients: z
    .array(client)
    .min(1)
    .meta({
      description: 'The lock clients, one lane each on the timeline.',
      examples: [[{ id: 'A', label: 'Barista A', recipe: 'lease-with-token', ttl: '10s', work: '6s' }]],
    }),
  leaseService: leaseServiceSection.optional().meta({
    description: 'An etcd-style lease service, for clients with `recipe: lease-service`.',
    examples: [{ id: 'etcd' }],
  }),
  dbLock: dbLockSection.optional().meta({
    description: 'A database lock table, for clients with `recipe: db-lock`.',
    examples: [{ id: 'db', mode: 'expiry-column' }],
  }),
  resource: resource.meta({
    description: 'What the clients protect with the lock: the espresso machine, a payment, a row.',
    examples: [{ id: 'espresso', kind: 'store', fencing: false }],
  }),
  script: z
    .array(scriptAction)
    .default([])
    .meta({
      description: 'Faults that happen by themselves, at a virtual time.',
      examples: [[{ at: '2s', do: 'pause', target: 'A', for: '15s' }]],
    }),
  controls: z
    .array(z.enum(CONTROLS))
    .default([])
    .meta({ description: 'The buttons a learner gets under the player.', examples: [['pause', 'resume', 'crash']] }),
  checks: z
    .strictObject({
      progressWithin: positiveDurationMs.default(30_000).meta({
        description: 'progress: the longest nobody may make progress while someone waits for the lock; left out, 30 s.',
        examples: ['30s'],
      }),
      /** bounded-wait: the longest any one client may wait for a lock. */
      maxWait: positiveDurationMs.optional().meta({
        description:
          'bounded-wait: the longest any one client may wait for the lock; left out, bounded-wait is not checked.',
        examples: ['5s'],
      }),
      /** calm-when-down: how many requests per second clients may send a Redis node that is down. */
      downAttemptsPerSecond: z
        .number()
        .positive()
        .optional()
        .meta({
          description:
            'calm-when-down: how many requests per second clients may send a Redis node that is down; left out, not checked.',
          examples: [2],
        }),
    })
    .default({ progressWithin: 30_000 })
    .meta({
      description: 'Checker settings: `progressWithin` is how long nobody may wait without progress.',
      examples: [{ progressWithin: '30s' }],
    }),
  expect: z
    .union([expectation, z.array(expectation)])
    .meta({
      description: 'What the run shows when nobody touches it; lessons:check runs it and compares.',
      examples: [{ invariant: 'single-writer', outcome: 'violated' }],
    })
    .transform((e) => (Array.isArray(e) ? e : [e]))
    .default([]),
});

/** A scenario as written (durations still strings). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A validated scenario: durations in ms, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ClientInput = Scenario['clients'][number];
export type ScriptAction = z.output<typeof scriptAction>;
export type NetworkInput = Scenario['network'];
