import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/** The ```reflect block: an open question with a notes box whose text is saved locally. */
export const reflectSchema = z.strictObject({
  id: blockId.optional().meta({
    description: 'Stable name for the saved notes; defaults to one by order of appearance.',
    examples: ['why-fencing'],
  }),
  question: z
    .string()
    .min(1)
    .meta({
      description: 'The open question, in Markdown.',
      examples: ['Where else in your system could a paused process write late?'],
    }),
  prompt: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: 'A nudge shown under the question, e.g. what a good answer would consider.',
      examples: ['Think of cron jobs and queue consumers.'],
    }),
});

export type ReflectSpec = z.output<typeof reflectSchema>;
