import { z } from 'zod';
import { blockId } from '../../scenario/ids';

/** The ```checklist block: items a learner ticks off; ticks are saved locally. */
export const checklistSchema = z.strictObject({
  id: blockId.optional(),
  title: z.string().min(1),
  items: z
    .array(
      z.strictObject({
        id: blockId,
        text: z.string().min(1),
        /** Why the item matters, shown under it. */
        detail: z.string().min(1).optional(),
      }),
    )
    .min(1),
});

export type ChecklistSpec = z.output<typeof checklistSchema>;
