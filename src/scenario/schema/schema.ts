import { z } from 'zod';
import type { ActionKind } from '../../actors/action';
import { RECIPES, type RecipeName } from '../../actors/recipes/catalog';
import { RESOURCE_KINDS } from '../../actors/resources/resource';
import type { Expect, SameType } from '../../sim/sameType';
import { durationMs, nonNegativeDurationMs, positiveDurationMs } from './duration';
import { redisActions, redisSection } from './redisSchema';
import { dbLockSection, leaseServiceSection } from './serviceSchema';
import { clientStep } from './stepSchema';
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

export const CONTROLS = ['pause', 'resume', 'crash', 'restart', 'clock-jump', 'toggle-fencing', 'partition', 'heal', 'network', 'failover', 'power-loss'] as const;
export type ControlName = (typeof CONTROLS)[number];

/** A control is a learner's button: one per kind of action (a console command has the console), and the fencing switch. */
type _ControlsAreActions = Expect<SameType<ControlName, Exclude<ActionKind, 'command'> | 'toggle-fencing'>>;

const probability = z.number().min(0, 'a probability is between 0 and 1').max(1, 'a probability is between 0 and 1');

/** A TTL: Redis refuses `PX 0` and negative expiries ("invalid expire time"), so must be > 0. */
const ttl = durationMs.refine((ms) => ms > 0, { message: 'a TTL must be greater than zero (Redis answers "invalid expire time" to PX 0 or a negative PX)' });

/**
 * One-way delay of a message: `5ms` (always 5 ms), `{ min: 1ms, max: 3ms }` (uniform), or
 * `{ dist: long-tail, min: 1ms, median: 5ms, max: 2s }` (mostly ~median, sometimes far slower).
 */
const latency = z
  .union([
  nonNegativeDurationMs,
  z.strictObject({
    dist: z.enum(['uniform', 'long-tail']).default('uniform').meta({ description: "`uniform`: any delay between min and max is as likely; `long-tail`: most near median, a few far slower, up to max.", examples: ['long-tail'] }),
    min: nonNegativeDurationMs.default(1).meta({ description: "The shortest one-way delay; left out, 1 ms.", examples: ['1ms'] }),
    max: nonNegativeDurationMs.default(3).meta({ description: "The longest one-way delay; left out, 3 ms.", examples: ['2s'] }),
    median: nonNegativeDurationMs.optional().meta({ description: "long-tail only: the delay half of the messages stay under.", examples: ['5ms'] }),
  }),
  ])
  .meta({ description: 'One-way delay of each message: a duration (`5ms`), or a range `{ min, max }`, or `{ dist: long-tail, min, median, max }`. Left out, 1 to 3 ms.', examples: ['5ms', { min: '1ms', max: '3ms' }] });

/** The fault knobs, shared by the whole network, one link, and the `network` step. */
const faults = {
  latency: latency.optional(),
  /** Probability a message is lost. */
  loss: probability.optional().meta({ description: "The chance, 0 to 1, that a message is lost; left out, none are.", examples: [0.01] }),
  /** Probability a message arrives twice. */
  duplicate: probability.optional().meta({ description: "The chance, 0 to 1, that a message arrives twice; left out, none do.", examples: [0.05] }),
  /** Probability a message is held back (by reorderDelay) so later ones overtake it. */
  reorder: probability.optional().meta({ description: "The chance, 0 to 1, that a message is held back by `reorderDelay` so later ones overtake it; left out, order is kept.", examples: [0.1] }),
};

const partition = z.strictObject({
  groups: z.array(z.array(id).min(1)).min(2, 'a partition needs at least two groups').meta({ description: "Actor ids in two or more groups; messages between groups are dropped, messages within a group pass.", examples: [[['A', 'r1'], ['B']]] }),
  oneWay: z.boolean().default(false).meta({ description: "true: only messages from the first group to the others are dropped; the other way still works.", examples: [true] }),
});

const network = z.strictObject({
  ...faults,
  reorderDelay: nonNegativeDurationMs.default(50).meta({ description: "How long a reordered message is held back; left out, 50 ms.", examples: ['200ms'] }),
  /** Overrides for single directed links. */
  links: z.array(z.strictObject({ from: id.meta({ description: "The sending actor's id.", examples: ['A'] }), to: id.meta({ description: "The receiving actor's id.", examples: ['r1'] }), ...faults })).default([]).meta({ description: "Faults for single directed links, over the network's own; left out, every link is alike.", examples: [[{ from: 'A', to: 'r1', latency: '2s' }]] }),
  /** Partitions in place from the start. */
  partitions: z.array(partition).default([]).meta({ description: "Partitions in place from the start of the run; left out, none.", examples: [[{ groups: [['A', 'r1'], ['B']] }]] }),
});

const retryPolicy = z.union([
  z.enum(['none', 'fixed', 'exponential']),
  z.strictObject({
    policy: z.enum(['none', 'fixed', 'exponential']).default('fixed').meta({ description: "`none`: give up at the first refusal; `fixed`: wait `delay` between tries; `exponential`: double the wait each try, up to `maxDelay`.", examples: ['exponential'] }),
    delay: nonNegativeDurationMs.optional().meta({ description: "The wait before the second try (and every try, with `fixed`); left out, the recipe's own.", examples: ['100ms'] }),
    maxDelay: nonNegativeDurationMs.optional().meta({ description: "exponential: the longest a wait may grow; left out, no cap.", examples: ['2s'] }),
    jitter: nonNegativeDurationMs.optional().meta({ description: "A random extra wait of up to this much on each try, so clients drift apart; left out, none.", examples: ['50ms'] }),
    attempts: z.number().int().positive().optional().meta({ description: "How many tries in all before it gives up; left out, it tries until the run ends.", examples: [5] }),
    /** own (default) or clock-second: seeded from the start second, as some guides do (see retryPolicy.ts). */
    jitterSeed: z.enum(['own', 'clock-second']).optional().meta({ description: "Where the jitter's randomness comes from: `own` (each client its own, the default) or `clock-second` (the starting second, so clients that start together jitter alike).", examples: ['clock-second'] }),
    /** true: the whole wait is random in [0, delay] (full jitter), and `jitter` is not added. */
    fullJitter: z.boolean().optional().meta({ description: "true: the whole wait is random between 0 and the delay (full jitter), and `jitter` is not added.", examples: [true] }),
  }),
]);

const client = z.strictObject({
  id: id.meta({ description: "The client's name, used by `target:` in the script.", examples: ['A'] }),
  label: z.string().optional().meta({ description: 'The name on its lane.', examples: ['Barista A'] }),
  recipe: z.enum(RECIPES).optional().meta({ description: 'The lock recipe it follows (required unless it has `steps`).', examples: ['lease-with-token'] }),
  steps: z.array(clientStep).min(1, 'a step list needs at least one step').optional().meta({ description: 'Its own step list instead of a recipe.', examples: [[{ redis: ['SET', '{key}', '{token}', 'NX', 'PX', '{ttl}'] }]] }),
  key: z.string().min(1).optional().meta({ description: 'The lock key.', examples: ['lock:espresso'] }),
  keys: z.array(z.string().min(1)).min(1).optional().meta({ description: 'Several lock keys, taken in this order (or sorted, with `ordered: true`).', examples: [['lock:a', 'lock:b']] }),
  ordered: z.boolean().default(false).meta({ description: 'true: take `keys` in sorted order, whatever order they are written in.', examples: [true] }),
  ttl: ttl.optional().meta({ description: 'How long the lease lasts: `10s`, `500ms`.', examples: ['10s'] }),
  work: z.union([z.literal('forever'), nonNegativeDurationMs]).default(1000).meta({ description: 'How long the job takes before it writes to the resource; `forever` never ends.', examples: ['6s'] }),
  startAt: nonNegativeDurationMs.default(0).meta({ description: 'When the client starts trying to take the lock.', examples: ['11s'] }),
  node: id.optional().meta({ description: 'Which Redis node it talks to (default: the first).', examples: ['r1'] }),
  nodes: z.array(id).min(1).optional().meta({ description: "Redlock's masters (default: every node).", examples: [['r1', 'r2', 'r3']] }),
  retry: retryPolicy.optional().meta({ description: 'What it does when the lock is taken: `none`, `fixed`, `exponential`, or the details.', examples: [{ policy: 'exponential', delay: '100ms', attempts: 5 }] }),
  timeout: positiveDurationMs.optional().meta({ description: 'How long to wait for each Redis answer before giving up on it (default: forever).', examples: ['1s'] }),
  renew: z.boolean().optional().meta({ description: 'true: a watchdog renews the lease every ttl/3.', examples: [true] }),
  renewEvery: positiveDurationMs.optional().meta({ description: 'How often the watchdog renews (turns it on).', examples: ['3s'] }),
  /**
   * A cap on the watchdog: once the client has held the lock this long, it stops renewing and
   * gives up the job, so a wedged worker frees the lock within one TTL instead of never.
   */
  maxHold: positiveDurationMs.optional().meta({ description: 'After holding the lock this long, stop renewing and give up the job.', examples: ['30s'] }),
  onRenewFail: z.enum(['stop', 'retry']).default('stop').meta({ description: 'On an unanswered renewal: `stop` at once, or `retry` until the lease would have run out.', examples: ['retry'] }),
  reenter: z.number().int().nonnegative().default(0).meta({ description: 'Take the same lock again this many times while holding it (a nested call).', examples: [1] }),
  jobs: z.number().int().positive().default(1).meta({ description: 'How many times the client takes the lock and does its job.', examples: [3] }),
  gap: nonNegativeDurationMs.default(0).meta({ description: 'Think time between the two commands of get-then-set or setnx-then-expire.', examples: ['500ms'] }),
  tokens: z.boolean().default(false).meta({ description: 'true: ask for fencing tokens even when the resource does not check them.', examples: [true] }),
  onUnavailable: z.enum(['refuse', 'proceed']).default('refuse').meta({ description: 'When retries give up: `refuse` to work, or `proceed` without the lock.', examples: ['proceed'] }),
  driftPpm: z.number().int().min(-500_000).max(500_000).default(0).meta({ description: 'How fast its clock runs, in parts per million: 10000 is 1% fast, -10000 1% slow.', examples: [10000] }),
  permits: z.number().int().positive().max(1000).optional().meta({ description: 'semaphore: how many clients may hold the key at once.', examples: [2] }),
  breaker: z.strictObject({ failures: z.number().int().positive().default(3).meta({ description: "Unanswered tries in a row that open the breaker; left out, 3.", examples: [5] }), coolDown: positiveDurationMs.default(2000).meta({ description: "How long an open breaker refuses before one trial call; left out, 2 s.", examples: ['5s'] }) }).optional().meta({ description: 'A circuit breaker: open after `failures` unanswered tries in a row, try again after `coolDown`.', examples: [{ failures: 3, coolDown: '2s' }] }),
  /**
   * Redlock's per-master timeout and clock-drift factor, and whether the client keeps to its
   * validity: `respected` (the algorithm: it uses the lock only while TTL − elapsed − drift
   * lasts, and unlocks every master once it is over) or `ignored` (a careless client that
   * writes however late; for lessons that show a stale write after the last check).
   */
  redlock: z
    .strictObject({
      instanceTimeout: positiveDurationMs.default(50).meta({ description: "How long to wait for each master's answer before counting it as a no; left out, 50 ms.", examples: ['50ms'] }),
      driftFactor: z.number().min(0).max(1).default(0.01).meta({ description: "The share of the TTL set aside for clock drift when computing validity; left out, 0.01 (1%).", examples: [0.01] }),
      validity: z.enum(['respected', 'ignored']).default('respected').meta({ description: "`respected`: use the lock only while TTL minus elapsed minus drift lasts; `ignored`: a careless client that writes however late.", examples: ['ignored'] }),
    })
    .optional()
    .meta({ description: "Redlock's per-master timeout, drift factor, and whether the client keeps to its validity.", examples: [{ instanceTimeout: '50ms', driftFactor: 0.01, validity: 'respected' }] }),
}).transform((c, ctx) => {
  // A client runs a recipe or its own steps: a recipe client must name its recipe and TTL.
  const missing = (key: string) => ctx.issues.push({ code: 'invalid_type', expected: 'string', input: undefined, path: [key], message: `add '${key}:' (or give the client steps:)` });
  if (c.steps === undefined) {
    if (c.recipe === undefined) missing('recipe');
    if (c.ttl === undefined) missing('ttl');
  } else if (c.recipe !== undefined) {
    ctx.issues.push({ code: 'custom', input: c.recipe, path: ['recipe'], message: 'a client follows either a recipe or its steps, not both' });
  }
  return { ...c, ttl: c.ttl ?? 10_000 };
});

const resource = z.strictObject({
  id: id.meta({ description: "The resource's name on its lane.", examples: ['espresso'] }),
  label: z.string().optional().meta({ description: 'The name on its lane, if not the id.', examples: ['Espresso machine'] }),
  kind: z.enum(RESOURCE_KINDS).default('store').meta({ description: 'What it is: a store, a payment provider, a row and so on.', examples: ['store'] }),
  fencing: z.boolean().default(false).meta({ description: 'true: reject writes whose fencing token is lower than one already seen.', examples: [true] }),
  /**
   * How a fenced store or row compares a write's token with the highest seen: `lenient` accepts
   * an equal one (`fence_token <= :token`: a holder may write again, and so may a repeated token),
   * `strict` only a larger one (`fence_token < :token`: one write per token).
   */
  fenceCompare: z.enum(['lenient', 'strict']).default('lenient').meta({ description: '`lenient` accepts a token equal to the highest seen, `strict` only a larger one.', examples: ['strict'] }),
  stock: z.number().int().nonnegative().default(10).meta({ description: 'inventory: the starting stock.', examples: [10] }),
  order: z.string().min(1).default('order-42').meta({ description: 'payment, dispatch: the order at stake.', examples: ['order-42'] }),
  idempotencyKeys: z.boolean().default(false).meta({ description: 'payment: the provider honours idempotency keys.', examples: [true] }),
  conditional: z.boolean().default(false).meta({ description: 'dispatch: assign only if the order is still NEW.', examples: [true] }),
});

/** When a script step happens, in the run's virtual time. */
const stepAt = nonNegativeDurationMs.meta({ description: "When it happens, in the run's virtual time from the start.", examples: ['2s'] });
const target = { at: stepAt, target: id.meta({ description: "The id of the client or Redis node it happens to.", examples: ['A'] }) };
/** A script step's kind, described for an editor's hover. */
const act = <K extends string>(kind: K, description: string) => z.literal(kind).meta({ description, examples: [kind] });

/**
 * One entry of a scenario's script: an `Action` (`src/actors/action.ts`) in the notation a
 * scenario file uses (durations as `2s`, `for:` and `by:`, the network's latency notation).
 * `toAction` turns it into the action itself.
 */
export const scriptAction = z.discriminatedUnion('do', [
  z.strictObject({ ...target, do: act('pause', 'pause: the target freezes, as in a long GC pause.'), for: positiveDurationMs.optional().meta({ description: "How long the pause lasts; left out, until a `resume` step or a learner's Resume.", examples: ['15s'] }) }),
  z.strictObject({ ...target, do: act('resume', 'resume: a paused target runs again.') }),
  z.strictObject({ ...target, do: act('crash', 'crash: the target stops, losing what it held in memory.') }),
  z.strictObject({ ...target, do: act('restart', 'restart: a crashed target starts again, empty or from its persistence.') }),
  z.strictObject({ ...target, do: act('clock-jump', "clock-jump: the target's wall clock steps."), by: durationMs.meta({ description: "How far the clock steps: forward, or back with a minus sign.", examples: ['20s'] }) }),
  z.strictObject({ at: stepAt, do: act('partition', 'partition: the network splits into groups that cannot reach each other.'), ...partition.shape }),
  z.strictObject({ at: stepAt, do: act('heal', 'heal: every partition ends.') }),
  z.strictObject({ at: stepAt, do: act('network', 'network: change delay, loss, duplication or reordering, on one link or everywhere.'), from: id.optional().meta({ description: "The sending end of the link to change; with `to`, or leave both out to change every link.", examples: ['A'] }), to: id.optional().meta({ description: "The receiving end of the link to change; with `from`, or leave both out to change every link.", examples: ['espresso'] }), ...faults }),
  /** A redis-cli command typed into the playground's console, run on one Redis node. */
  z.strictObject({ ...target, do: act('command', 'command: a redis-cli command run on one Redis node, as if typed in the console.'), argv: z.array(z.string()).min(1).meta({ description: "The command and its arguments, one word each.", examples: [['DEL', 'lock:espresso']] }) }),
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
    invariant: z.enum([...INVARIANTS, 'all']).meta({ description: "The invariant the entry is about, or `all` for every invariant the run checks that has no entry of its own.", examples: ['single-writer'] }),
    outcome: z.enum(['holds', 'violated']).meta({ description: "What the quiet run must show for it: `holds` or `violated` (`all` goes with `holds` only).", examples: ['violated'] }),
  })
  .refine((e) => e.invariant !== 'all' || e.outcome === 'holds', { message: "'all' goes with outcome: holds (list each invariant the run breaks on its own)", path: ['outcome'] });

export const scenarioSchema = z.strictObject({
  id: id.meta({ description: "The scenario's name, unique in the lesson; `lesson.md#id` runs it from the command line.", examples: ['paused-barista'] }),
  title: z.string().min(1).meta({ description: 'The heading above the player.', examples: ['The paused barista'] }),
  seed: z.number().int().nonnegative().default(1).meta({ description: 'Picks one run out of many: the same seed gives the same run every time.', examples: [7] }),
  horizon: positiveDurationMs.default(60_000).meta({ description: 'When the run stops even if someone is still busy: `60s`, `500ms`.', examples: ['60s'] }),
  view: z
    .strictObject({
      from: nonNegativeDurationMs.meta({ description: 'Where the first view starts, in run time: `0ms`, `10s`.', examples: ['0ms'] }),
      to: positiveDurationMs.meta({ description: 'Where the first view ends, after `from`: `60ms`, `20s`.', examples: ['60ms'] }),
    })
    .refine((v) => v.from < v.to, { message: "the view's `to` must come after its `from`", path: ['to'] })
    .optional()
    .meta({
      description: 'The stretch of the run the player first shows, for a run whose action sits in a small part of it (the learner can still zoom out: 0 fits the whole run). Left out, the player opens on the whole run.',
      examples: [{ from: '0ms', to: '60ms' }],
    }),
  redis: redisSection.prefault({ nodes: [{ id: 'r1' }] }).meta({ description: 'The Redis nodes, their replication and persistence.', examples: [{ nodes: [{ id: 'r1'}]}] }),
  network: network.default({ reorderDelay: 50, links: [], partitions: [] }).meta({ description: 'Delay, loss, duplication and partitions between every actor.', examples: [{ latency: '5ms', loss: 0.01}] }),
  clients: z.array(client).min(1).meta({ description: 'The lock clients, one lane each on the timeline.', examples: [[{ id: 'A', label: 'Barista A', recipe: 'lease-with-token', ttl: '10s', work: '6s'}]] }),
  leaseService: leaseServiceSection.optional().meta({ description: 'An etcd-style lease service, for clients with `recipe: lease-service`.', examples: [{ id: 'etcd' }] }),
  dbLock: dbLockSection.optional().meta({ description: 'A database lock table, for clients with `recipe: db-lock`.', examples: [{ id: 'db', mode: 'expiry-column' }] }),
  resource: resource.meta({ description: 'What the clients protect with the lock: the espresso machine, a payment, a row.', examples: [{ id: 'espresso', kind: 'store', fencing: false}] }),
  script: z.array(scriptAction).default([]).meta({ description: 'Faults that happen by themselves, at a virtual time.', examples: [[{ at: '2s', do: 'pause', target: 'A', for: '15s'}]] }),
  controls: z.array(z.enum(CONTROLS)).default([]).meta({ description: 'The buttons a learner gets under the player.', examples: [['pause', 'resume', 'crash']] }),
  checks: z
    .strictObject({
      progressWithin: positiveDurationMs.default(30_000).meta({ description: "progress: the longest nobody may make progress while someone waits for the lock; left out, 30 s.", examples: ['30s'] }),
      /** bounded-wait: the longest any one client may wait for a lock. */
      maxWait: positiveDurationMs.optional().meta({ description: "bounded-wait: the longest any one client may wait for the lock; left out, bounded-wait is not checked.", examples: ['5s'] }),
      /** calm-when-down: how many requests per second clients may send a Redis node that is down. */
      downAttemptsPerSecond: z.number().positive().optional().meta({ description: "calm-when-down: how many requests per second clients may send a Redis node that is down; left out, not checked.", examples: [2] }),
    })
    .default({ progressWithin: 30_000 })
    .meta({ description: 'Checker settings: `progressWithin` is how long nobody may wait without progress.', examples: [{ progressWithin: '30s' }] }),
  expect: z.union([expectation, z.array(expectation)]).meta({ description: 'What the run shows when nobody touches it; lessons:check runs it and compares.', examples: [{ invariant: 'single-writer', outcome: 'violated'}] }).transform((e) => (Array.isArray(e) ? e : [e])).default([]),
});

/** A scenario as written (durations still strings). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A validated scenario: durations in ms, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ClientInput = Scenario['clients'][number];
export type ScriptAction = z.output<typeof scriptAction>;
export type NetworkInput = Scenario['network'];
