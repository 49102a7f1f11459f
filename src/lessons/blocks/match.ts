import { z } from 'zod';
import { blockId } from '../../scenario/ids';

const itemId = blockId;

/**
 * The ```match block: problems on the left, tools on the right. A problem may accept more
 * than one tool (the curriculum's "1 → A or E"), so `answer` is a tool id or a list of them.
 */
export const matchSchema = z.strictObject({
  id: itemId.optional(),
  question: z.string().min(1),
  problems: z
    .array(
      z.strictObject({
        id: itemId,
        text: z.string().min(1),
        answer: z.union([itemId, z.array(itemId).min(1)]).transform((a) => (Array.isArray(a) ? a : [a])),
        explanation: z.string().min(1),
      }),
    )
    .min(1),
  tools: z.array(z.strictObject({ id: itemId, text: z.string().min(1) })).min(2),
});

export type MatchSpec = z.output<typeof matchSchema>;

/** Cross-field rules: unique ids, and every answer names a listed tool. */
export function matchProblems(spec: MatchSpec): { path: (string | number)[]; message: string; hint: string }[] {
  const out: { path: (string | number)[]; message: string; hint: string }[] = [];
  const toolIds = spec.tools.map((t) => t.id);
  for (const [listKey, items] of [['problems', spec.problems], ['tools', spec.tools]] as const) {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item.id)) out.push({ path: [listKey, i, 'id'], message: `duplicate id '${item.id}' in ${listKey}`, hint: 'ids must be unique' });
      seen.add(item.id);
    });
  }
  spec.problems.forEach((p, i) => {
    for (const a of p.answer) {
      if (!toolIds.includes(a)) {
        out.push({ path: ['problems', i, 'answer'], message: `answer '${a}' is not one of the tools`, hint: `tools: ${toolIds.join(', ')}` });
      }
    }
  });
  return out;
}
