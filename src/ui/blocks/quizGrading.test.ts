import { describe, expect, it } from 'vitest';
import type { QuizSpec } from '../../lessons/blocks/quiz';
import type { QuizAnswer } from '../progress/progressData';
import { commitAnswer, gradeQuiz, hasAnswer } from './quizGrading';

const single: QuizSpec = {
  kind: 'single',
  question: 'Q',
  hints: [],
  options: [
    { id: 'a', text: 'A', correct: false, explanation: 'why not a' },
    { id: 'b', text: 'B', correct: true, explanation: 'why b' },
    { id: 'c', text: 'C', correct: false, explanation: 'why not c' },
  ],
};
const answer = (patch: Partial<QuizAnswer>): QuizAnswer => ({
  selected: [],
  picks: {},
  committed: true,
  hintsShown: 0,
  ...patch,
});

describe('gradeQuiz', () => {
  it('puts the targeted explanation of a wrong pick first, then the right answer', () => {
    const grade = gradeQuiz(single, answer({ selected: ['c'] }));
    expect(grade.correct).toBe(false);
    expect(grade.feedback.map((f) => [f.id, f.chosen, f.correct])).toEqual([
      ['c', true, false],
      ['b', false, true],
      ['a', false, false],
    ]);
  });

  it('grades a right pick as correct', () => {
    expect(gradeQuiz(single, answer({ selected: ['b'] })).correct).toBe(true);
  });

  it('has no verdict when the learner only thought about it', () => {
    const grade = gradeQuiz(single, answer({}));
    expect(grade.correct).toBeNull();
    expect(grade.feedback[0]!.id).toBe('b');
  });

  it('needs exactly the correct set in multiple choice', () => {
    const multi: QuizSpec = {
      ...single,
      kind: 'multiple',
      options: single.options.map((o) => ({ ...o, correct: o.id !== 'a' })),
    };
    expect(gradeQuiz(multi, answer({ selected: ['b'] })).correct).toBe(false);
    expect(gradeQuiz(multi, answer({ selected: ['c', 'b'] })).correct).toBe(true);
  });

  it('grades a true/false set statement by statement', () => {
    const tf: QuizSpec = {
      kind: 'true-false',
      question: 'Q',
      hints: [],
      statements: [
        { id: 's1', text: 'one', answer: false, explanation: 'e1' },
        { id: 's2', text: 'two', answer: true, explanation: 'e2' },
      ],
    };
    const grade = gradeQuiz(tf, answer({ picks: { s1: 'false', s2: 'false' } }));
    expect(grade.correct).toBe(false);
    expect(grade.feedback.map((f) => [f.id, f.said, f.answer, f.correct])).toEqual([
      ['s1', 'false', 'false', true],
      ['s2', 'false', 'true', false],
    ]);
    expect(hasAnswer(tf, answer({}))).toBe(false);
  });
});

describe('commitAnswer: when a quiz counts toward its lesson', () => {
  const open = (patch: Partial<QuizAnswer>) => answer({ committed: false, ...patch });

  it('counts a right answer, not a wrong one, which it remembers as missed', () => {
    expect(commitAnswer(single, open({ selected: ['b'] }), true)).toMatchObject({
      committed: true,
      earned: true,
      missed: false,
    });
    expect(commitAnswer(single, open({ selected: ['a'] }), true)).toMatchObject({
      committed: true,
      earned: false,
      missed: true,
    });
  });

  it('counts the answer shown after a wrong try, but not shown without one', () => {
    expect(commitAnswer(single, open({}), false)).toMatchObject({ earned: false, missed: false });
    expect(commitAnswer(single, open({ missed: true, earned: false }), false)).toMatchObject({
      earned: true,
      missed: true,
    });
  });

  it('keeps what was earned when a later try is wrong', () => {
    expect(commitAnswer(single, open({ selected: ['c'], earned: true }), true)).toMatchObject({
      earned: true,
      missed: true,
    });
  });
});
