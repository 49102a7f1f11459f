import { z } from 'zod';
import { durationMs, nonNegativeDurationMs, positiveDurationMs } from './duration';

/**
 * The scenario file format: what an instructor writes in a ```scenario block or in
 * lessons/scenarios/*.yaml. Every object is strict, so a typo is an error with a
 * "did you mean" hint rather than a silently ignored key.
 */

const id = z.string().regex(/^[A-Za-z][\w-]*$/, 'use letters, digits, - and _ (starting with a letter)');

export const RECIPES = ['lease-plain-del', 'lease-with-token'] as const;
export type RecipeName = (typeof RECIPES)[number];

export const INVARIANTS = ['single-writer'] as const;
export type InvariantName = (typeof INVARIANTS)[number];

export const CONTROLS = ['pause', 'resume', 'crash', 'restart', 'clock-jump', 'toggle-fencing'] as const;
export type ControlName = (typeof CONTROLS)[number];

export const RESOURCE_KINDS = ['store'] as const;

const redisNode = z.strictObject({
  id,
  label: z.string().optional(),
});

const latency = z.strictObject({
  min: nonNegativeDurationMs.default(1),
  max: nonNegativeDurationMs.default(3),
});

const network = z.strictObject({
  /** One-way delay of every message, drawn uniformly from [min, max]. */
  latency: latency.default({ min: 1, max: 3 }),
});

const client = z.strictObject({
  id,
  label: z.string().optional(),
  recipe: z.enum(RECIPES),
  /** The lock key. */
  key: z.string().min(1).default('lock'),
  /** The lease length requested from Redis. */
  ttl: positiveDurationMs,
  /** How long the critical section takes before it writes to the resource. */
  work: nonNegativeDurationMs.default(1000),
  /** When the client starts trying to take the lock. */
  startAt: nonNegativeDurationMs.default(0),
  /** Which Redis node it talks to (default: the first). */
  node: id.optional(),
});

const resource = z.strictObject({
  id,
  label: z.string().optional(),
  kind: z.enum(RESOURCE_KINDS).default('store'),
  /** Reject writes whose fencing token is lower than one already seen. */
  fencing: z.boolean().default(false),
});

const target = { at: nonNegativeDurationMs, target: id };

/** Something done to a process at a moment: scripted in the scenario, or done by the learner. */
export const step = z.discriminatedUnion('do', [
  z.strictObject({ ...target, do: z.literal('pause'), for: positiveDurationMs.optional() }),
  z.strictObject({ ...target, do: z.literal('resume') }),
  z.strictObject({ ...target, do: z.literal('crash') }),
  z.strictObject({ ...target, do: z.literal('restart') }),
  z.strictObject({ ...target, do: z.literal('clock-jump'), by: durationMs }),
]);

const expectation = z.strictObject({
  invariant: z.enum(INVARIANTS),
  outcome: z.enum(['holds', 'violated']),
});

export const scenarioSchema = z.strictObject({
  id,
  title: z.string().min(1),
  seed: z.number().int().nonnegative().default(1),
  /** Virtual-time cap: the run stops here even if actors are still busy. */
  horizon: positiveDurationMs.default(60_000),
  redis: z.strictObject({ nodes: z.array(redisNode).min(1) }).default({ nodes: [{ id: 'r1' }] }),
  network: network.default({ latency: { min: 1, max: 3 } }),
  clients: z.array(client).min(1),
  resource,
  script: z.array(step).default([]),
  controls: z.array(z.enum(CONTROLS)).default([]),
  expect: z.union([expectation, z.array(expectation)]).transform((e) => (Array.isArray(e) ? e : [e])).default([]),
});

/** A scenario as written (durations still strings). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** A validated scenario: durations in ms, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ClientSpec = Scenario['clients'][number];
export type ResourceSpec = Scenario['resource'];
export type Step = z.output<typeof step>;
export type Expectation = z.output<typeof expectation>;
