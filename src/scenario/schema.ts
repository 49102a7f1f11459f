import { z } from 'zod';
import type { ActionKind } from '../actors/action';
import { RECIPES, type RecipeName } from '../actors/recipes/catalog';
import { RESOURCE_KINDS } from '../actors/resources/resource';
import type { Expect, SameType } from '../sim/sameType';
import { durationMs, nonNegativeDurationMs, positiveDurationMs } from './duration';
import { redisActions, redisSection } from './redisSchema';
import { dbLockSection, leaseServiceSection } from './serviceSchema';
import { clientStep } from './stepSchema';
import { actorId } from './ids';
import { INVARIANTS } from '../check/invariants';

/**
 * The scenario file format: what an instructor writes in a ```scenario block or in
 * lessons/scenarios/*.yaml. Every object is strict, so a typo is an error with a
 * "did you mean" hint rather than a silently ignored key. README "Scenario files" documents
 * every key with an example.
 */

const id = actorId;

export { RECIPES, RESOURCE_KINDS };
export type { RecipeName };

export { INVARIANTS, type InvariantName } from '../check/invariants';

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
const latency = z.union([
  nonNegativeDurationMs,
  z.strictObject({
    dist: z.enum(['uniform', 'long-tail']).default('uniform'),
    min: nonNegativeDurationMs.default(1),
    max: nonNegativeDurationMs.default(3),
    median: nonNegativeDurationMs.optional(),
  }),
]);

/** The fault knobs, shared by the whole network, one link, and the `network` step. */
const faults = {
  latency: latency.optional(),
  /** Probability a message is lost. */
  loss: probability.optional(),
  /** Probability a message arrives twice. */
  duplicate: probability.optional(),
  /** Probability a message is held back (by reorderDelay) so later ones overtake it. */
  reorder: probability.optional(),
};

const partition = z.strictObject({
  groups: z.array(z.array(id).min(1)).min(2, 'a partition needs at least two groups'),
  oneWay: z.boolean().default(false),
});

const network = z.strictObject({
  ...faults,
  reorderDelay: nonNegativeDurationMs.default(50),
  /** Overrides for single directed links. */
  links: z.array(z.strictObject({ from: id, to: id, ...faults })).default([]),
  /** Partitions in place from the start. */
  partitions: z.array(partition).default([]),
});

const retryPolicy = z.union([
  z.enum(['none', 'fixed', 'exponential']),
  z.strictObject({
    policy: z.enum(['none', 'fixed', 'exponential']).default('fixed'),
    delay: nonNegativeDurationMs.optional(),
    maxDelay: nonNegativeDurationMs.optional(),
    jitter: nonNegativeDurationMs.optional(),
    attempts: z.number().int().positive().optional(),
    /** own (default) or clock-second: seeded from the start second, as some guides do (see retryPolicy.ts). */
    jitterSeed: z.enum(['own', 'clock-second']).optional(),
    /** true: the whole wait is random in [0, delay] (full jitter), and `jitter` is not added. */
    fullJitter: z.boolean().optional(),
  }),
]);

const client = z.strictObject({
  id,
  label: z.string().optional(),
  /** The lock recipe (required unless the client has `steps`). */
  recipe: z.enum(RECIPES).optional(),
  /** An explicit step list instead of a recipe (see stepSchema.ts). */
  steps: z.array(clientStep).min(1, 'a step list needs at least one step').optional(),
  /** The lock key. */
  key: z.string().min(1).optional(),
  /** Several lock keys, taken in this order (or sorted, with `ordered: true`). */
  keys: z.array(z.string().min(1)).min(1).optional(),
  ordered: z.boolean().default(false),
  /** The lease length requested from Redis (a step client's `{ttl}`, default 10 s there). */
  ttl: ttl.optional(),
  /** How long the critical section takes before it writes to the resource; `forever` never ends. */
  work: z.union([z.literal('forever'), nonNegativeDurationMs]).default(1000),
  /** When the client starts trying to take the lock. */
  startAt: nonNegativeDurationMs.default(0),
  /** Which Redis node it talks to (default: the first). */
  node: id.optional(),
  /** Redlock's masters (default: every node). */
  nodes: z.array(id).min(1).optional(),
  retry: retryPolicy.optional(),
  /** How long to wait for each Redis answer before giving up on it (default: forever). */
  timeout: positiveDurationMs.optional(),
  /** Turn on the watchdog (renew every ttl/3). */
  renew: z.boolean().optional(),
  /** Watchdog period (turns the watchdog on). */
  renewEvery: positiveDurationMs.optional(),
  /**
   * A cap on the watchdog: once the client has held the lock this long, it stops renewing and
   * gives up the job, so a wedged worker frees the lock within one TTL instead of never.
   */
  maxHold: positiveDurationMs.optional(),
  /** On an unanswered renewal: stop at once, or retry until the lease would have run out. */
  onRenewFail: z.enum(['stop', 'retry']).default('stop'),
  /** Take the same lock again this many times while holding it (a nested call). */
  reenter: z.number().int().nonnegative().default(0),
  /** How many times the client takes the lock and does its job. */
  jobs: z.number().int().positive().default(1),
  /** Think time between the two commands of get-then-set / setnx-then-expire. */
  gap: nonNegativeDurationMs.default(0),
  /** Ask for fencing tokens even when the resource does not check them (to show why it must). */
  tokens: z.boolean().default(false),
  /** When the retry policy gives up: refuse to work (C) or do the work without the lock (A). */
  onUnavailable: z.enum(['refuse', 'proceed']).default('refuse'),
  /** How fast this client's clock runs, in parts per million: 10000 is 1% fast, -10000 1% slow. */
  driftPpm: z.number().int().min(-500_000).max(500_000).default(0),
  /** semaphore: how many clients may hold the key at once (every client of one semaphore gives the same number). */
  permits: z.number().int().positive().max(1000).optional(),
  /** A circuit breaker around acquire: open after `failures` unanswered tries in a row, try one again after `coolDown`. */
  breaker: z.strictObject({ failures: z.number().int().positive().default(3), coolDown: positiveDurationMs.default(2000) }).optional(),
  /**
   * Redlock's per-master timeout and clock-drift factor, and whether the client keeps to its
   * validity: `respected` (the algorithm: it uses the lock only while TTL − elapsed − drift
   * lasts, and unlocks every master once it is over) or `ignored` (a careless client that
   * writes however late; for lessons that show a stale write after the last check).
   */
  redlock: z
    .strictObject({
      instanceTimeout: positiveDurationMs.default(50),
      driftFactor: z.number().min(0).max(1).default(0.01),
      validity: z.enum(['respected', 'ignored']).default('respected'),
    })
    .optional(),
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
  id,
  label: z.string().optional(),
  kind: z.enum(RESOURCE_KINDS).default('store'),
  /** Reject writes whose fencing token is lower than one already seen (store, db-row). */
  fencing: z.boolean().default(false),
  /**
   * How a fenced store or row compares a write's token with the highest seen: `lenient` accepts
   * an equal one (`fence_token <= :token`: a holder may write again, and so may a repeated token),
   * `strict` only a larger one (`fence_token < :token`: one write per token).
   */
  fenceCompare: z.enum(['lenient', 'strict']).default('lenient'),
  /** inventory: the starting stock. */
  stock: z.number().int().nonnegative().default(10),
  /** payment, dispatch: the order at stake. */
  order: z.string().min(1).default('order-42'),
  /** payment: the provider honours idempotency keys. */
  idempotencyKeys: z.boolean().default(false),
  /** dispatch: assign only if the order is still NEW. */
  conditional: z.boolean().default(false),
});

const target = { at: nonNegativeDurationMs, target: id };

/**
 * One entry of a scenario's script: an `Action` (`src/actors/action.ts`) in the notation a
 * scenario file uses (durations as `2s`, `for:` and `by:`, the network's latency notation).
 * `toAction` turns it into the action itself.
 */
export const scriptAction = z.discriminatedUnion('do', [
  z.strictObject({ ...target, do: z.literal('pause'), for: positiveDurationMs.optional() }),
  z.strictObject({ ...target, do: z.literal('resume') }),
  z.strictObject({ ...target, do: z.literal('crash') }),
  z.strictObject({ ...target, do: z.literal('restart') }),
  z.strictObject({ ...target, do: z.literal('clock-jump'), by: durationMs }),
  z.strictObject({ at: nonNegativeDurationMs, do: z.literal('partition'), ...partition.shape }),
  z.strictObject({ at: nonNegativeDurationMs, do: z.literal('heal') }),
  z.strictObject({ at: nonNegativeDurationMs, do: z.literal('network'), from: id.optional(), to: id.optional(), ...faults }),
  /** A redis-cli command typed into the playground's console, run on one Redis node. */
  z.strictObject({ ...target, do: z.literal('command'), argv: z.array(z.string()).min(1) }),
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
    invariant: z.enum([...INVARIANTS, 'all']),
    outcome: z.enum(['holds', 'violated']),
  })
  .refine((e) => e.invariant !== 'all' || e.outcome === 'holds', { message: "'all' goes with outcome: holds (list each invariant the run breaks on its own)", path: ['outcome'] });

export const scenarioSchema = z.strictObject({
  id,
  title: z.string().min(1),
  seed: z.number().int().nonnegative().default(1),
  /** Virtual-time cap: the run stops here even if actors are still busy. */
  horizon: positiveDurationMs.default(60_000),
  redis: redisSection.prefault({ nodes: [{ id: 'r1' }] }),
  network: network.default({ reorderDelay: 50, links: [], partitions: [] }),
  clients: z.array(client).min(1),
  /** An etcd-style lease service (clients with recipe: lease-service). */
  leaseService: leaseServiceSection.optional(),
  /** A database lock table (clients with recipe: db-lock). */
  dbLock: dbLockSection.optional(),
  resource,
  script: z.array(scriptAction).default([]),
  controls: z.array(z.enum(CONTROLS)).default([]),
  /** Checker settings: `progressWithin` is how long nobody may wait without progress. */
  checks: z
    .strictObject({
      progressWithin: positiveDurationMs.default(30_000),
      /** bounded-wait: the longest any one client may wait for a lock. */
      maxWait: positiveDurationMs.optional(),
      /** calm-when-down: how many requests per second clients may send a Redis node that is down. */
      downAttemptsPerSecond: z.number().positive().optional(),
    })
    .default({ progressWithin: 30_000 }),
  expect: z.union([expectation, z.array(expectation)]).transform((e) => (Array.isArray(e) ? e : [e])).default([]),
});

/** A scenario as written (durations still strings). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A validated scenario: durations in ms, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ClientInput = Scenario['clients'][number];
export type ResourceInput = Scenario['resource'];
export type ScriptAction = z.output<typeof scriptAction>;
export type Expectation = z.output<typeof expectation>;
export type NetworkInput = Scenario['network'];
