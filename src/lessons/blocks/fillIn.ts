import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/**
 * The ```fill-in block: free-text fields (e.g. a post-incident report) saved locally and
 * exportable as Markdown. There is no "right answer"; an optional model answer can be revealed.
 */
export const fillInSchema = z.strictObject({
  id: blockId.optional().meta({
    description:
      'Stable name for the saved text; left out, the block is numbered by order of appearance, and inserting one above renumbers it.',
    examples: ['incident-report'],
  }),
  title: z
    .string()
    .min(1)
    .meta({
      description: 'The heading over the fields; also the heading of the Markdown the learner exports.',
      examples: ['What your failovers showed'],
    }),
  fields: z
    .array(
      z.strictObject({
        id: blockId.meta({
          description: "The field's name, unique in this block; its text is saved under it.",
          examples: ['early'],
        }),
        label: z
          .string()
          .min(1)
          .meta({ description: 'The question or prompt over the text box.', examples: ['Failover at about 1.2 s'] }),
        placeholder: z
          .string()
          .optional()
          .meta({
            description: 'Grey text in the empty box, a hint of the expected shape; left out, the box is blank.',
            examples: ['When, who, and what the store accepted'],
          }),
        /** Height of the text box in lines. */
        rows: z
          .number()
          .int()
          .min(1)
          .max(20)
          .default(3)
          .meta({ description: 'Height of the text box in lines, 1 to 20.', examples: [2] }),
        /** A model answer the learner can reveal after writing their own. */
        model: z
          .string()
          .min(1)
          .optional()
          .meta({
            description:
              'A model answer the learner can reveal after writing their own; left out, there is nothing to reveal.',
            examples: ['Two writers: the replica had not received the SET yet.'],
          }),
      }),
    )
    .min(1)
    .meta({
      description: 'The text boxes, in the order shown; at least one.',
      examples: [[{ id: 'early', label: 'Failover at about 1.2 s', rows: 2 }]],
    }),
});

export type FillInSpec = z.output<typeof fillInSchema>;
