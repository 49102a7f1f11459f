import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/** The ```checklist block: items a learner ticks off; ticks are saved locally. */
export const checklistSchema = z.strictObject({
  id: blockId.optional().meta({
    description:
      'Stable name for the saved ticks; left out, the block is numbered by order of appearance (checklist-1), and inserting one above renumbers it.',
    examples: ['before-you-ship'],
  }),
  title: z
    .string()
    .min(1)
    .meta({ description: 'The heading shown above the items.', examples: ['Reviewing a Redis lock'] }),
  items: z
    .array(
      z.strictObject({
        id: blockId.meta({
          description: "The item's name, unique in this checklist; its tick is saved under it.",
          examples: ['token'],
        }),
        text: z
          .string()
          .min(1)
          .meta({
            description: 'What to tick off, in Markdown.',
            examples: ['Take the lock with SET NX PX and a value unique to this attempt.'],
          }),
        /** Why the item matters, shown under it. */
        detail: z
          .string()
          .min(1)
          .optional()
          .meta({
            description: 'Why the item matters, shown under it in smaller type; left out, the item is its text alone.',
            examples: ['The value lets the release tell this holder from the next one.'],
          }),
      }),
    )
    .min(1)
    .meta({
      description: 'The items, in the order shown; at least one.',
      examples: [[{ id: 'token', text: 'Take the lock with a unique value.' }]],
    }),
});

export type ChecklistSpec = z.output<typeof checklistSchema>;
