import { z } from 'zod';
import { RECIPES } from '../../actors/recipes/catalog';
import { durationMs, nonNegativeDurationMs, positiveDurationMs } from './duration';
import { clientStep } from './stepSchema';
import { actorId } from './ids';

const id = actorId;

// One entry of a scenario's `clients:` list, with its retry policy (schema.ts assembles the
// whole file format).

/** A TTL: Redis refuses `PX 0` and negative expiries ("invalid expire time"), so must be > 0. */
const ttl = durationMs.refine((ms) => ms > 0, {
  message: 'a TTL must be greater than zero (Redis answers "invalid expire time" to PX 0 or a negative PX)',
});

const retryPolicy = z.union([
  z.enum(['none', 'fixed', 'exponential']),
  z.strictObject({
    policy: z
      .enum(['none', 'fixed', 'exponential'])
      .default('fixed')
      .meta({
        description:
          '`none`: give up at the first refusal; `fixed`: wait `delay` between tries; `exponential`: double the wait each try, up to `maxDelay`.',
        examples: ['exponential'],
      }),
    delay: nonNegativeDurationMs.optional().meta({
      description: "The wait before the second try (and every try, with `fixed`); left out, the recipe's own.",
      examples: ['100ms'],
    }),
    maxDelay: nonNegativeDurationMs
      .optional()
      .meta({ description: 'exponential: the longest a wait may grow; left out, no cap.', examples: ['2s'] }),
    jitter: nonNegativeDurationMs.optional().meta({
      description: 'A random extra wait of up to this much on each try, so clients drift apart; left out, none.',
      examples: ['50ms'],
    }),
    attempts: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({
        description: 'How many tries in all before it gives up; left out, it tries until the run ends.',
        examples: [5],
      }),
    /** own (default) or clock-second: seeded from the start second, as some guides do (see retryPolicy.ts). */
    jitterSeed: z
      .enum(['own', 'clock-second'])
      .optional()
      .meta({
        description:
          "Where the jitter's randomness comes from: `own` (each client its own, the default) or `clock-second` (the starting second, so clients that start together jitter alike).",
        examples: ['clock-second'],
      }),
    /** true: the whole wait is random in [0, delay] (full jitter), and `jitter` is not added. */
    fullJitter: z
      .boolean()
      .optional()
      .meta({
        description: 'true: the whole wait is random between 0 and the delay (full jitter), and `jitter` is not added.',
        examples: [true],
      }),
  }),
]);

export const client = z
  .strictObject({
    id: id.meta({ description: "The client's name, used by `target:` in the script.", examples: ['A'] }),
    label: z
      .string()
      .optional()
      .meta({ description: 'The name on its lane.', examples: ['Barista A'] }),
    recipe: z
      .enum(RECIPES)
      .optional()
      .meta({
        description: 'The lock recipe it follows (required unless it has `steps`).',
        examples: ['lease-with-token'],
      }),
    steps: z
      .array(clientStep)
      .min(1, 'a step list needs at least one step')
      .optional()
      .meta({
        description: 'Its own step list instead of a recipe.',
        examples: [[{ redis: ['SET', '{key}', '{token}', 'NX', 'PX', '{ttl}'] }]],
      }),
    key: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The lock key.', examples: ['lock:espresso'] }),
    keys: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .meta({
        description: 'Several lock keys, taken in this order (or sorted, with `ordered: true`).',
        examples: [['lock:a', 'lock:b']],
      }),
    ordered: z
      .boolean()
      .default(false)
      .meta({
        description: 'true: take `keys` in sorted order, whatever order they are written in.',
        examples: [true],
      }),
    ttl: ttl.optional().meta({ description: 'How long the lease lasts: `10s`, `500ms`.', examples: ['10s'] }),
    work: z
      .union([z.literal('forever'), nonNegativeDurationMs])
      .default(1000)
      .meta({
        description: 'How long the job takes before it writes to the resource; `forever` never ends.',
        examples: ['6s'],
      }),
    startAt: nonNegativeDurationMs
      .default(0)
      .meta({ description: 'When the client starts trying to take the lock.', examples: ['11s'] }),
    node: id.optional().meta({ description: 'Which Redis node it talks to (default: the first).', examples: ['r1'] }),
    nodes: z
      .array(id)
      .min(1)
      .optional()
      .meta({ description: "Redlock's masters (default: every node).", examples: [['r1', 'r2', 'r3']] }),
    retry: retryPolicy.optional().meta({
      description: 'What it does when the lock is taken: `none`, `fixed`, `exponential`, or the details.',
      examples: [{ policy: 'exponential', delay: '100ms', attempts: 5 }],
    }),
    timeout: positiveDurationMs.optional().meta({
      description: 'How long to wait for each Redis answer before giving up on it (default: forever).',
      examples: ['1s'],
    }),
    renew: z
      .boolean()
      .optional()
      .meta({ description: 'true: a watchdog renews the lease every ttl/3.', examples: [true] }),
    renewEvery: positiveDurationMs
      .optional()
      .meta({ description: 'How often the watchdog renews (turns it on).', examples: ['3s'] }),
    /**
     * A cap on the watchdog: once the client has held the lock this long, it stops renewing and
     * gives up the job, so a wedged worker frees the lock within one TTL instead of never.
     */
    maxHold: positiveDurationMs
      .optional()
      .meta({ description: 'After holding the lock this long, stop renewing and give up the job.', examples: ['30s'] }),
    onRenewFail: z
      .enum(['stop', 'retry'])
      .default('stop')
      .meta({
        description: 'On an unanswered renewal: `stop` at once, or `retry` until the lease would have run out.',
        examples: ['retry'],
      }),
    reenter: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .meta({
        description: 'Take the same lock again this many times while holding it (a nested call).',
        examples: [1],
      }),
    jobs: z
      .number()
      .int()
      .positive()
      .default(1)
      .meta({ description: 'How many times the client takes the lock and does its job.', examples: [3] }),
    gap: nonNegativeDurationMs.default(0).meta({
      description: 'Think time between the two commands of get-then-set or setnx-then-expire.',
      examples: ['500ms'],
    }),
    tokens: z
      .boolean()
      .default(false)
      .meta({
        description: 'true: ask for fencing tokens even when the resource does not check them.',
        examples: [true],
      }),
    onUnavailable: z
      .enum(['refuse', 'proceed'])
      .default('refuse')
      .meta({
        description: 'When retries give up: `refuse` to work, or `proceed` without the lock.',
        examples: ['proceed'],
      }),
    driftPpm: z
      .number()
      .int()
      .min(-500_000)
      .max(500_000)
      .default(0)
      .meta({
        description: 'How fast its clock runs, in parts per million: 10000 is 1% fast, -10000 1% slow.',
        examples: [10000],
      }),
    permits: z
      .number()
      .int()
      .positive()
      .max(1000)
      .optional()
      .meta({ description: 'semaphore: how many clients may hold the key at once.', examples: [2] }),
    breaker: z
      .strictObject({
        failures: z
          .number()
          .int()
          .positive()
          .default(3)
          .meta({ description: 'Unanswered tries in a row that open the breaker; left out, 3.', examples: [5] }),
        coolDown: positiveDurationMs.default(2000).meta({
          description: 'How long an open breaker refuses before one trial call; left out, 2 s.',
          examples: ['5s'],
        }),
      })
      .optional()
      .meta({
        description: 'A circuit breaker: open after `failures` unanswered tries in a row, try again after `coolDown`.',
        examples: [{ failures: 3, coolDown: '2s' }],
      }),
    /**
     * Redlock's per-master timeout and clock-drift factor, and whether the client keeps to its
     * validity: `respected` (the algorithm: it uses the lock only while TTL − elapsed − drift
     * lasts, and unlocks every master once it is over) or `ignored` (a careless client that
     * writes however late; for lessons that show a stale write after the last check).
     */
    redlock: z
      .strictObject({
        instanceTimeout: positiveDurationMs.default(50).meta({
          description: "How long to wait for each master's answer before counting it as a no; left out, 50 ms.",
          examples: ['50ms'],
        }),
        driftFactor: z
          .number()
          .min(0)
          .max(1)
          .default(0.01)
          .meta({
            description: 'The share of the TTL set aside for clock drift when computing validity; left out, 0.01 (1%).',
            examples: [0.01],
          }),
        validity: z
          .enum(['respected', 'ignored'])
          .default('respected')
          .meta({
            description:
              '`respected`: use the lock only while TTL minus elapsed minus drift lasts; `ignored`: a careless client that writes however late.',
            examples: ['ignored'],
          }),
      })
      .optional()
      .meta({
        description: "Redlock's per-master timeout, drift factor, and whether the client keeps to its validity.",
        examples: [{ instanceTimeout: '50ms', driftFactor: 0.01, validity: 'respected' }],
      }),
  })
  .transform((c, ctx) => {
    // A client runs a recipe or its own steps: a recipe client must name its recipe and TTL.
    const missing = (key: string) =>
      ctx.issues.push({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: [key],
        message: `add '${key}:' (or give the client steps:)`,
      });
    if (c.steps === undefined) {
      if (c.recipe === undefined) missing('recipe');
      if (c.ttl === undefined) missing('ttl');
    } else if (c.recipe !== undefined) {
      ctx.issues.push({
        code: 'custom',
        input: c.recipe,
        path: ['recipe'],
        message: 'a client follows either a recipe or its steps, not both',
      });
    }
    return { ...c, ttl: c.ttl ?? 10_000 };
  });
