import { z } from 'zod';
import { blockId } from '../../scenario/schema/ids';

/**
 * The ```quiz block. Three kinds share one shape so authors learn it once:
 * `single` and `multiple` list options (one or several marked `correct: true`);
 * `true-false` lists statements, each with its own `answer: true|false`.
 * Every option and statement carries an explanation that stays hidden until the
 * learner commits, so a wrong pick gets a targeted reason rather than "wrong".
 */

const optionId = blockId;

const option = z.strictObject({
  id: optionId.meta({
    description: "The option's name, unique in this quiz; saved answers use it.",
    examples: ['wait'],
  }),
  text: z
    .string()
    .min(1)
    .meta({ description: 'What the learner reads and picks.', examples: ['Wait for the lease to run out'] }),
  correct: z
    .boolean()
    .default(false)
    .meta({ description: 'true on the right option (several for kind: multiple).', examples: [true] }),
  explanation: z
    .string()
    .min(1)
    .meta({
      description: 'Why this option is right or wrong; shown after the learner commits.',
      examples: ['B writes while A still believes it holds the lock.'],
    }),
});

const statement = z.strictObject({
  id: optionId.meta({
    description: "The statement's name, unique in this quiz; saved answers use it.",
    examples: ['ttl-saves'],
  }),
  text: z
    .string()
    .min(1)
    .meta({
      description: 'A claim the learner marks true or false.',
      examples: ['A longer TTL makes the pause harmless.'],
    }),
  answer: z.boolean().meta({ description: 'Whether the claim is true.', examples: [false] }),
  explanation: z
    .string()
    .min(1)
    .meta({
      description: 'Why it is true or false; shown after the learner commits.',
      examples: ['A pause can always outlast any TTL.'],
    }),
});

const common = {
  id: optionId.optional().meta({
    description: 'Stable name for saved answers; defaults to quiz-1, quiz-2… in order of appearance.',
    examples: ['who-writes'],
  }),
  question: z
    .string()
    .min(1)
    .meta({ description: 'The question, in Markdown.', examples: ['Who writes to the espresso machine at 12 s?'] }),
  hints: z
    .array(z.string().min(1))
    .default([])
    .meta({
      description: 'Revealed one at a time, on request, before the learner commits.',
      examples: [['Look at the lease on the Redis lane.']],
    }),
};

// Single and multiple choice are separate literal branches so that an unknown key gets a
// "did you mean" computed from the keys of the branch the author actually chose.
export const singleQuizSchema = z.strictObject({
  ...common,
  kind: z.literal('single').meta({
    description: 'single: one right option; multiple: several; true-false: statements.',
    examples: ['single'],
  }),
  options: z.array(option).meta({
    description: 'The choices, in the order shown.',
    examples: [
      [
        {
          id: 'wait',
          text: 'Wait for the lease to run out',
          correct: true,
          explanation: 'Then nobody else holds it.',
        },
      ],
    ],
  }),
});
export const multipleQuizSchema = z.strictObject({
  ...common,
  kind: z.literal('multiple').meta({
    description: 'single: one right option; multiple: several; true-false: statements.',
    examples: ['multiple'],
  }),
  options: z.array(option).meta({
    description: 'The choices, in the order shown.',
    examples: [
      [
        {
          id: 'wait',
          text: 'Wait for the lease to run out',
          correct: true,
          explanation: 'Then nobody else holds it.',
        },
      ],
    ],
  }),
});

export const trueFalseQuizSchema = z.strictObject({
  ...common,
  kind: z.literal('true-false').meta({
    description: 'single: one right option; multiple: several; true-false: statements.',
    examples: ['true-false'],
  }),
  statements: z
    .array(statement)
    .min(1)
    .meta({
      description: 'The claims to mark true or false, in the order shown.',
      examples: [
        [
          {
            id: 'ttl-saves',
            text: 'A longer TTL makes the pause harmless.',
            answer: false,
            explanation: 'A pause can outlast any TTL.',
          },
        ],
      ],
    }),
});

export const quizSchema = z.discriminatedUnion('kind', [singleQuizSchema, multipleQuizSchema, trueFalseQuizSchema]);

export type QuizSpec = z.output<typeof quizSchema>;

/** A rule broken by a quiz that parses but cannot be answered sensibly; `path` points into the block. */
export interface QuizProblem {
  path: (string | number)[];
  message: string;
  hint: string;
}

/** The rules zod cannot express per field: enough options, exactly one answer for single choice, unique ids. */
export function quizProblems(quiz: QuizSpec): QuizProblem[] {
  const problems: QuizProblem[] = [];
  const items = quiz.kind === 'true-false' ? quiz.statements : quiz.options;
  const listKey = quiz.kind === 'true-false' ? 'statements' : 'options';
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const first = seen.get(item.id);
    if (first !== undefined) {
      problems.push({
        path: [listKey, i, 'id'],
        message: `duplicate ${listKey === 'options' ? 'option' : 'statement'} id '${item.id}' (first used by ${listKey}[${first}])`,
        hint: 'give every option its own id',
      });
    } else seen.set(item.id, i);
  });
  if (quiz.kind === 'true-false') return problems;

  if (quiz.options.length < 2) {
    problems.push({
      path: ['options'],
      message: `a quiz needs at least two options, found ${quiz.options.length}`,
      hint: 'add the tempting wrong answers too',
    });
  }
  const correct = quiz.options.flatMap((o, i) => (o.correct ? [i] : []));
  if (correct.length === 0) {
    problems.push({
      path: ['options'],
      message: 'no option is marked correct',
      hint: "add 'correct: true' to the right option",
    });
  }
  if (quiz.kind === 'single' && correct.length > 1) {
    problems.push({
      path: ['options', correct[1]!, 'correct'],
      message: `a single-choice quiz has ${correct.length} correct options (${correct.map((i) => quiz.options[i]!.id).join(', ')})`,
      hint: "mark exactly one option correct, or use 'kind: multiple'",
    });
  }
  return problems;
}
