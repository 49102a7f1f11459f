import { z } from 'zod';
import { blockId } from '../../scenario/ids';

/** The ```reflect block: an open question with a notes box whose text is saved locally. */
export const reflectSchema = z.strictObject({
  id: blockId.optional(),
  question: z.string().min(1),
  /** A nudge shown under the question, e.g. what a good answer would consider. */
  prompt: z.string().min(1).optional(),
});

export type ReflectSpec = z.output<typeof reflectSchema>;
