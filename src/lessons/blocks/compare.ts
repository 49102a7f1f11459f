import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/** What one side of a comparison changes in the scenario it starts from. */
const side = z.strictObject({
  label: z
    .string()
    .min(1)
    .meta({ description: "The heading over this side's player.", examples: ['Fencing on'] }),
  /** Override `resource.fencing`. */
  fencing: z
    .boolean()
    .optional()
    .meta({
      description:
        "Turns the resource's fencing-token check on or off for this side; left out, the scenario's own setting stays.",
      examples: [true],
    }),
  /** Override `resource.fenceCompare` (lenient `<=` or strict `<`). */
  fenceCompare: z
    .enum(['lenient', 'strict'])
    .optional()
    .meta({
      description:
        "How this side's resource compares tokens: `lenient` accepts a token equal to the highest seen, `strict` only a larger one; left out, the scenario's own setting stays.",
      examples: ['strict'],
    }),
  /** Override the scenario's seed. */
  seed: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .meta({
      description:
        "Runs this side with another seed (the random choices of latency and loss); left out, the scenario's seed.",
      examples: [8],
    }),
});

/**
 * The ```compare block: the same scenario twice, side by side, with one thing changed
 * (e.g. fencing off / on). It names a scenario block of the same lesson by id, or a sidecar file.
 */
export const compareSchema = z.strictObject({
  id: blockId.optional().meta({
    description: 'Stable name for the block; left out, it is numbered by order of appearance.',
    examples: ['fencing-side-by-side'],
  }),
  title: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: 'The heading over both players; left out, none is shown.',
      examples: ['The same afternoon, with fencing'],
    }),
  /** The id of a ```scenario block earlier in this lesson. */
  scenario: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: 'The id of a scenario block earlier in this lesson. Give this or `ref`, not both.',
      examples: ['paused-barista'],
    }),
  /** Or a sidecar file, relative to lessons/. */
  ref: z
    .string()
    .regex(/^scenarios\/[\w.-]+\.ya?ml$/, 'write it as scenarios/<name>.yaml (relative to lessons/)')
    .optional()
    .meta({
      description: 'A sidecar scenario file, relative to the lessons folder. Give this or `scenario`, not both.',
      examples: ['scenarios/paused-barista.yaml'],
    }),
  left: side.meta({
    description: 'The left player: a label and what it changes in the scenario.',
    examples: [{ label: 'Fencing off', fencing: false }],
  }),
  right: side.meta({
    description: 'The right player: a label and what it changes in the scenario.',
    examples: [{ label: 'Fencing on', fencing: true }],
  }),
});

export type CompareSpec = z.output<typeof compareSchema>;
export type CompareSide = z.output<typeof side>;
