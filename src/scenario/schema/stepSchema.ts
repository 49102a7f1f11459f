import { z } from 'zod';
import { inferMeaning, type ClientStep } from '../../actors/client/clientSteps';
import { nonNegativeDurationMs } from './duration';

/**
 * One step of a client's explicit step list, as a scenario writes it:
 *
 * ```yaml
 * steps:
 *   - { redis: [INCR, 'lock:fence'] }                   # as: fence (inferred): the token writes carry
 *   - { redis: [SET, lock, '{value}', NX, PX, 10000] }   # as: acquire (inferred), ifBusy: retry
 *   - { wait: 2s }
 *   - { read: stock }                                    # read the resource first
 *   - { write: espresso }                                # carries the last token, if any
 *   - { redis: [DEL, lock] }                             # as: release (inferred)
 * ```
 *
 * One object with every key optional (rather than a union of shapes), so a typo such as
 * `wiat: 2s` is reported as an unknown key with "did you mean 'wait'?"; exactly one of
 * redis / wait / read / write must be given.
 */
const ACTIONS = ['redis', 'wait', 'read', 'write'] as const;

export const clientStep = z
  .strictObject({
    /** A Redis command, word by word; `{value}`, `{token}`, `{key}`, `{ttl}` and `{id}` are filled in. */
    redis: z
      .array(z.union([z.string(), z.number()]).transform(String))
      .min(1, 'a command needs at least its name')
      .optional()
      .meta({
        description:
          'A Redis command, one word each; `{value}`, `{token}`, `{key}`, `{ttl}` and `{id}` are filled in from the client.',
        examples: [['SET', 'lock:espresso', '{value}', 'NX', 'PX', 10000]],
      }),
    /** Which Redis node to send it to (default: the client's node). */
    node: z
      .string()
      .optional()
      .meta({
        description: "redis steps: the Redis node to send it to; left out, the client's node.",
        examples: ['r2'],
      }),
    /** What the command means to the client (default: inferred from the command); `fence`: its integer answer is the token later writes carry. */
    as: z
      .enum(['acquire', 'release', 'renew', 'fence', 'command'])
      .optional()
      .meta({
        description:
          'redis steps: what the command means to the client (`fence`: its integer answer is the token later writes carry); left out, read from the command.',
        examples: ['acquire'],
      }),
    /** When an acquiring command finds the lock taken: retry by the client's retry policy, skip ahead without it, or stop. */
    ifBusy: z
      .enum(['retry', 'skip', 'stop'])
      .optional()
      .meta({
        description:
          "acquiring redis steps: when the lock is taken, `retry` by the client's retry policy (the default), `skip` ahead without it, or `stop`.",
        examples: ['stop'],
      }),
    /** Do nothing for this long (the client's own clock). */
    wait: nonNegativeDurationMs
      .optional()
      .meta({ description: "Do nothing for this long, on the client's own clock.", examples: ['2s'] }),
    /** Read the protected resource (its id). */
    read: z
      .string()
      .optional()
      .meta({ description: 'Read the protected resource, by its id.', examples: ['stock'] }),
    /** Write to the protected resource (its id). */
    write: z
      .string()
      .optional()
      .meta({
        description: 'Write to the protected resource, by its id; the write carries the last fencing token, if any.',
        examples: ['espresso'],
      }),
  })
  .transform((s, ctx): ClientStep => {
    const given = ACTIONS.filter((a) => s[a] !== undefined);
    // An unknown key already reported (`wiat: 2s`) is very likely the missing action itself.
    const typo = ctx.issues.some((issue) => issue.code === 'unrecognized_keys');
    if (given.length !== 1 && !(typo && given.length === 0)) {
      ctx.issues.push({
        code: 'custom',
        input: s,
        message: given.length
          ? `one step does one thing, this one has ${given.join(' and ')}: split it into ${given.length} steps`
          : `a step needs one of ${ACTIONS.join(', ')}`,
      });
      return { do: 'wait', ms: 0 };
    }
    const extras = (['node', 'as', 'ifBusy'] as const).filter((k) => s[k] !== undefined);
    if (s.redis === undefined && extras.length) {
      ctx.issues.push({
        code: 'custom',
        input: s,
        path: [extras[0]!],
        message: `'${extras[0]}' belongs to a redis step`,
      });
    }
    if (s.redis !== undefined)
      return {
        do: 'redis',
        argv: s.redis,
        node: s.node ?? null,
        as: s.as ?? inferMeaning(s.redis),
        ifBusy: s.ifBusy ?? 'retry',
      };
    if (s.wait !== undefined) return { do: 'wait', ms: s.wait };
    return s.read !== undefined ? { do: 'read', resource: s.read } : { do: 'write', resource: s.write! };
  });
