import { z } from 'zod';
import { blockId } from '../../scenario/ids';

/**
 * The ```quiz block. Three kinds share one shape so authors learn it once:
 * `single` and `multiple` list options (one or several marked `correct: true`);
 * `true-false` lists statements, each with its own `answer: true|false`.
 * Every option and statement carries an explanation that stays hidden until the
 * learner commits, so a wrong pick gets a targeted reason rather than "wrong".
 */

const optionId = blockId;

const option = z.strictObject({
  id: optionId,
  text: z.string().min(1),
  correct: z.boolean().default(false),
  /** Why this option is right or wrong; shown after the learner commits. */
  explanation: z.string().min(1),
});

const statement = z.strictObject({
  id: optionId,
  text: z.string().min(1),
  answer: z.boolean(),
  explanation: z.string().min(1),
});

const common = {
  /** Stable id for saved answers; defaults to quiz-1, quiz-2... in order of appearance. */
  id: optionId.optional(),
  question: z.string().min(1),
  /** Revealed one at a time, on request, before the learner commits. */
  hints: z.array(z.string().min(1)).default([]),
};

// Single and multiple choice are separate literal branches so that an unknown key gets a
// "did you mean" computed from the keys of the branch the author actually chose.
export const singleQuizSchema = z.strictObject({ ...common, kind: z.literal('single'), options: z.array(option) });
export const multipleQuizSchema = z.strictObject({ ...common, kind: z.literal('multiple'), options: z.array(option) });

export const trueFalseQuizSchema = z.strictObject({
  ...common,
  kind: z.literal('true-false'),
  statements: z.array(statement).min(1),
});

export const quizSchema = z.discriminatedUnion('kind', [singleQuizSchema, multipleQuizSchema, trueFalseQuizSchema]);

export type ChoiceQuiz = z.output<typeof singleQuizSchema> | z.output<typeof multipleQuizSchema>;
export type TrueFalseQuiz = z.output<typeof trueFalseQuizSchema>;
export type QuizSpec = z.output<typeof quizSchema>;
export type QuizOption = ChoiceQuiz['options'][number];
export type QuizStatement = TrueFalseQuiz['statements'][number];

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
    problems.push({ path: ['options'], message: `a quiz needs at least two options, found ${quiz.options.length}`, hint: 'add the tempting wrong answers too' });
  }
  const correct = quiz.options.flatMap((o, i) => (o.correct ? [i] : []));
  if (correct.length === 0) {
    problems.push({ path: ['options'], message: 'no option is marked correct', hint: "add 'correct: true' to the right option" });
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
