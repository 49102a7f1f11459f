import { z } from 'zod';
import { blockId } from '../../scenario/ids';

/**
 * The ```fill-in block: free-text fields (e.g. a post-incident report) saved locally and
 * exportable as Markdown. There is no "right answer"; an optional model answer can be revealed.
 */
export const fillInSchema = z.strictObject({
  id: blockId.optional(),
  title: z.string().min(1),
  fields: z
    .array(
      z.strictObject({
        id: blockId,
        label: z.string().min(1),
        placeholder: z.string().optional(),
        /** Height of the text box in lines. */
        rows: z.number().int().min(1).max(20).default(3),
        /** A model answer the learner can reveal after writing their own. */
        model: z.string().min(1).optional(),
      }),
    )
    .min(1),
});

export type FillInSpec = z.output<typeof fillInSchema>;
