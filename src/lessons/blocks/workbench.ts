import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';
import { INVARIANTS, type InvariantName, type Scenario } from '../../scenario/schema/schema';

/** The explorer's budget in a lesson when the block does not give one. */
export const WORKBENCH_DEFAULT_RUNS = 1000;

/**
 * The explorer seed of every workbench block, in the page and in lessons:check alike: the same
 * seed and budget give the same answer in both, so what the check proved is what the learner sees.
 */
export const WORKBENCH_EXPLORER_SEED = 1;

/**
 * The ```workbench block: an embedded workbench that starts from a buggy recipe, which the
 * learner breaks with the explorer and then fixes.
 *
 * ```yaml
 * ref: scenarios/clinic-untokened-del.yaml        # the buggy recipe the editor starts with
 * fixed: scenarios/clinic-untokened-del-fixed.yaml # a fix, never shown; lessons:check proves the explorer finds no break in it
 * break: single-writer                             # the invariant the explorer hunts
 * runs: 1000                                       # optional budget
 * ```
 */
export const workbenchSchema = z.strictObject({
  id: blockId.optional().meta({
    description:
      'Stable name for the block; submissions name it, so keep it once learners hand in work. Left out, the block is numbered by order of appearance.',
    examples: ['clinic-plain-del-workbench'],
  }),
  /** The buggy recipe the editor starts with (relative to lessons/). */
  ref: z
    .string()
    .min(1)
    .meta({
      description: 'The buggy recipe the editor starts with: a scenario file relative to the lessons folder.',
      examples: ['scenarios/clinic-plain-del.yaml'],
    }),
  /** A fix, never shown: lessons:check proves the explorer finds no break of `break` in it. */
  fixed: z
    .string()
    .min(1)
    .meta({
      description:
        'A fixed recipe, never shown to learners: lessons:check proves the explorer finds no break of `break` in it within `runs`.',
      examples: ['scenarios/clinic-plain-del-fixed.yaml'],
    }),
  /** The invariant the explorer hunts. */
  break: z.enum(INVARIANTS).meta({
    description: 'The invariant the explorer hunts: it must break in `ref` and hold in `fixed`.',
    examples: ['released-by-owner'],
  }),
  /** The explorer's budget in runs, for the learner's search and for lessons:check alike. */
  runs: z
    .number()
    .int('a whole number of runs')
    .min(1)
    .max(20_000, 'at most 20,000 runs: a learner waits for them')
    .optional()
    .meta({
      description:
        "The explorer's budget in runs, for the learner's search, lessons:check and grading alike; left out, 1000.",
      examples: [1000],
    }),
});

/** A workbench block as a lesson ships it: the recipe's own text (comments and all) and what it is checked against. */
export interface WorkbenchSpec {
  ref: string;
  /** The recipe as written in its file: what the editor starts with. */
  text: string;
  /** The recipe, validated. */
  scenario: Scenario;
  /** The fix's path, for lessons:check; its text never reaches the page. */
  fixed: string;
  break: InvariantName;
  runs: number;
  /** Where `ref` and `fixed` are written in the lesson, for lessons:check's messages. */
  at: { ref: Place; fixed: Place };
}

interface Place {
  line: number;
  col: number;
}
