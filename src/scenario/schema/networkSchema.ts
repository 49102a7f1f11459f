import { z } from 'zod';
import { nonNegativeDurationMs } from './duration';
import { actorId } from './ids';

const id = actorId;

// A scenario's `network:` section and the fault knobs a script's `network` step shares with it
// (schema.ts assembles the whole file format).

const probability = z.number().min(0, 'a probability is between 0 and 1').max(1, 'a probability is between 0 and 1');

/**
 * One-way delay of a message: `5ms` (always 5 ms), `{ min: 1ms, max: 3ms }` (uniform), or
 * `{ dist: long-tail, min: 1ms, median: 5ms, max: 2s }` (mostly ~median, sometimes far slower).
 */
const latency = z
  .union([
    nonNegativeDurationMs,
    z.strictObject({
      dist: z
        .enum(['uniform', 'long-tail'])
        .default('uniform')
        .meta({
          description:
            '`uniform`: any delay between min and max is as likely; `long-tail`: most near median, a few far slower, up to max.',
          examples: ['long-tail'],
        }),
      min: nonNegativeDurationMs
        .default(1)
        .meta({ description: 'The shortest one-way delay; left out, 1 ms.', examples: ['1ms'] }),
      max: nonNegativeDurationMs
        .default(3)
        .meta({ description: 'The longest one-way delay; left out, 3 ms.', examples: ['2s'] }),
      median: nonNegativeDurationMs
        .optional()
        .meta({ description: 'long-tail only: the delay half of the messages stay under.', examples: ['5ms'] }),
    }),
  ])
  .meta({
    description:
      'One-way delay of each message: a duration (`5ms`), or a range `{ min, max }`, or `{ dist: long-tail, min, median, max }`. Left out, 1 to 3 ms.',
    examples: ['5ms', { min: '1ms', max: '3ms' }],
  });

/** The fault knobs, shared by the whole network, one link, and the `network` step. */
export const faults = {
  latency: latency.optional(),
  /** Probability a message is lost. */
  loss: probability
    .optional()
    .meta({ description: 'The chance, 0 to 1, that a message is lost; left out, none are.', examples: [0.01] }),
  /** Probability a message arrives twice. */
  duplicate: probability
    .optional()
    .meta({ description: 'The chance, 0 to 1, that a message arrives twice; left out, none do.', examples: [0.05] }),
  /** Probability a message is held back (by reorderDelay) so later ones overtake it. */
  reorder: probability.optional().meta({
    description:
      'The chance, 0 to 1, that a message is held back by `reorderDelay` so later ones overtake it; left out, order is kept.',
    examples: [0.1],
  }),
};

export const partition = z.strictObject({
  groups: z
    .array(z.array(id).min(1))
    .min(2, 'a partition needs at least two groups')
    .meta({
      description:
        'Actor ids in two or more groups; messages between groups are dropped, messages within a group pass.',
      examples: [[['A', 'r1'], ['B']]],
    }),
  oneWay: z
    .boolean()
    .default(false)
    .meta({
      description: 'true: only messages from the first group to the others are dropped; the other way still works.',
      examples: [true],
    }),
});

export const network = z.strictObject({
  ...faults,
  reorderDelay: nonNegativeDurationMs
    .default(50)
    .meta({ description: 'How long a reordered message is held back; left out, 50 ms.', examples: ['200ms'] }),
  /** Overrides for single directed links. */
  links: z
    .array(
      z.strictObject({
        from: id.meta({ description: "The sending actor's id.", examples: ['A'] }),
        to: id.meta({ description: "The receiving actor's id.", examples: ['r1'] }),
        ...faults,
      }),
    )
    .default([])
    .meta({
      description: "Faults for single directed links, over the network's own; left out, every link is alike.",
      examples: [[{ from: 'A', to: 'r1', latency: '2s' }]],
    }),
  /** Partitions in place from the start. */
  partitions: z
    .array(partition)
    .default([])
    .meta({
      description: 'Partitions in place from the start of the run; left out, none.',
      examples: [[{ groups: [['A', 'r1'], ['B']] }]],
    }),
});
