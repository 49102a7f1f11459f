import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

const itemId = blockId;

/**
 * The ```match block: problems on the left, tools on the right. A problem may accept more
 * than one tool (the curriculum's "1 → A or E"), so `answer` is a tool id or a list of them.
 */
export const matchSchema = z.strictObject({
  id: itemId.optional().meta({
    description: 'Stable name for the saved answers; left out, the block is numbered by order of appearance.',
    examples: ['which-tool'],
  }),
  question: z
    .string()
    .min(1)
    .meta({
      description: 'The instruction over the two lists, in Markdown.',
      examples: ['Match each problem to the tool you would reach for first.'],
    }),
  problems: z
    .array(
      z.strictObject({
        id: itemId.meta({ description: "The problem's name, unique among problems.", examples: ['invoice'] }),
        text: z
          .string()
          .min(1)
          .meta({
            description: 'The problem as the learner reads it.',
            examples: ['An invoice must be charged at most once.'],
          }),
        answer: z
          .union([itemId, z.array(itemId).min(1)])
          .meta({
            description: 'The id of the right tool, or a list of ids when several are right.',
            examples: ['db-unique', ['redis-lease', 'etcd-lease']],
          })
          .transform((a) => (Array.isArray(a) ? a : [a])),
        explanation: z
          .string()
          .min(1)
          .meta({
            description: 'Why that tool fits, shown once the learner has matched.',
            examples: ['A unique constraint records the charge durably.'],
          }),
      }),
    )
    .min(1)
    .meta({
      description: 'The left column: the problems to match, at least one.',
      examples: [
        [
          {
            id: 'invoice',
            text: 'Charge an invoice at most once.',
            answer: 'db-unique',
            explanation: 'The database records it durably.',
          },
        ],
      ],
    }),
  tools: z
    .array(
      z.strictObject({
        id: itemId.meta({ description: "The tool's name, which answers refer to.", examples: ['db-unique'] }),
        text: z
          .string()
          .min(1)
          .meta({ description: 'The tool as the learner reads it.', examples: ['Database unique constraint'] }),
      }),
    )
    .min(2)
    .meta({
      description: 'The right column: the tools to choose from, at least two.',
      examples: [
        [
          { id: 'redis-lease', text: 'Redis lease' },
          { id: 'db-unique', text: 'Database unique constraint' },
        ],
      ],
    }),
});

export type MatchSpec = z.output<typeof matchSchema>;

/** Cross-field rules: unique ids, and every answer names a listed tool. */
export function matchProblems(spec: MatchSpec): { path: (string | number)[]; message: string; hint: string }[] {
  const out: { path: (string | number)[]; message: string; hint: string }[] = [];
  const toolIds = spec.tools.map((t) => t.id);
  for (const [listKey, items] of [
    ['problems', spec.problems],
    ['tools', spec.tools],
  ] as const) {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item.id))
        out.push({
          path: [listKey, i, 'id'],
          message: `duplicate id '${item.id}' in ${listKey}`,
          hint: 'ids must be unique',
        });
      seen.add(item.id);
    });
  }
  spec.problems.forEach((p, i) => {
    for (const a of p.answer) {
      if (!toolIds.includes(a)) {
        out.push({
          path: ['problems', i, 'answer'],
          message: `answer '${a}' is not one of the tools`,
          hint: `tools: ${toolIds.join(', ')}`,
        });
      }
    }
  });
  return out;
}
