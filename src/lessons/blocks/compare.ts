import { z } from 'zod';
import { blockId } from '../../scenario/ids';

/** What one side of a comparison changes in the scenario it starts from. */
const side = z.strictObject({
  label: z.string().min(1),
  /** Override `resource.fencing`. */
  fencing: z.boolean().optional(),
  /** Override `resource.fenceCompare` (lenient `<=` or strict `<`). */
  fenceCompare: z.enum(['lenient', 'strict']).optional(),
  /** Override the scenario's seed. */
  seed: z.number().int().nonnegative().optional(),
});

/**
 * The ```compare block: the same scenario twice, side by side, with one thing changed
 * (e.g. fencing off / on). It names a scenario block of the same lesson by id, or a sidecar file.
 */
export const compareSchema = z.strictObject({
  id: blockId.optional(),
  title: z.string().min(1).optional(),
  /** The id of a ```scenario block earlier in this lesson. */
  scenario: z.string().min(1).optional(),
  /** Or a sidecar file, relative to lessons/. */
  ref: z.string().regex(/^scenarios\/[\w.-]+\.ya?ml$/, 'write it as scenarios/<name>.yaml (relative to lessons/)').optional(),
  left: side,
  right: side,
});

export type CompareSpec = z.output<typeof compareSchema>;
export type CompareSide = z.output<typeof side>;
