import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/**
 * The ```after block: what follows it up to the next heading, prose and blocks alike, is shown
 * only once the learner has committed an answer to the named quiz (earlier in the lesson). For
 * the paragraph under a player that tells what the run showed, or the player itself, when a quiz
 * above asked the learner to predict it. The learner may still choose to read on without answering.
 */
export const afterSchema = z.strictObject({
  /** The id of a quiz earlier in the lesson. */
  quiz: blockId.meta({
    description:
      'The id of a quiz earlier in the lesson. Everything after this block, up to the next heading, stays hidden until the learner answers that quiz (or chooses to read on).',
    examples: ['who-writes'],
  }),
});
