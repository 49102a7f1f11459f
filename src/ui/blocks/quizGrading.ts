import type { QuizSpec } from '../../lessons/blocks/quiz';
import type { QuizAnswer } from '../progress/progressData';

/** One explanation to show after the learner commits, in the order it should be read. */
export interface Feedback {
  id: string;
  text: string;
  explanation: string;
  /** The option is right (choice) / the statement's true answer (true-false). */
  correct: boolean;
  /** The learner picked this option (choice) or judged this statement right (true-false). */
  chosen: boolean;
  /** True-false only: what the learner said, if anything. */
  said?: 'true' | 'false';
  answer?: 'true' | 'false';
}

export interface Grade {
  /** Whether the whole answer is right; null when the learner only "thought about it". */
  correct: boolean | null;
  /** Chosen options first (their targeted explanations), then the right answer, then the rest. */
  feedback: Feedback[];
}

/** Grades a committed answer and orders the explanations so a wrong pick is addressed first. */
export function gradeQuiz(quiz: QuizSpec, answer: QuizAnswer): Grade {
  if (quiz.kind === 'true-false') {
    const feedback = quiz.statements.map((s): Feedback => {
      const said = answer.picks[s.id] as 'true' | 'false' | undefined;
      const truth = s.answer ? 'true' : 'false';
      return {
        id: s.id,
        text: s.text,
        explanation: s.explanation,
        correct: said === truth,
        chosen: said !== undefined,
        ...(said ? { said } : {}),
        answer: truth,
      };
    });
    const answered = feedback.some((f) => f.chosen);
    return { correct: answered ? feedback.every((f) => f.correct) : null, feedback };
  }
  const selected = new Set(answer.selected);
  const rank = (o: { id: string; correct: boolean }) => (selected.has(o.id) ? 0 : o.correct ? 1 : 2);
  const feedback = quiz.options
    .map((o): Feedback => ({
      id: o.id,
      text: o.text,
      explanation: o.explanation,
      correct: o.correct,
      chosen: selected.has(o.id),
    }))
    .sort((a, b) => rank(a) - rank(b));
  if (!selected.size) return { correct: null, feedback };
  return { correct: quiz.options.every((o) => o.correct === selected.has(o.id)), feedback };
}

/** Whether the learner has given any answer yet (so "Check my answer" has something to check). */
export function hasAnswer(quiz: QuizSpec, answer: QuizAnswer): boolean {
  return quiz.kind === 'true-false' ? Object.keys(answer.picks).length > 0 : answer.selected.length > 0;
}

/**
 * What committing changes: the answer is checked (or, without one, shown), and the quiz is
 * earned (it counts toward its lesson) when the answer is right, or when it is shown after a
 * wrong try; a wrong answer is remembered as missed. Both survive "Try again".
 */
export function commitAnswer(quiz: QuizSpec, answer: QuizAnswer, withAnswer: boolean): Partial<QuizAnswer> {
  const patch = withAnswer ? { committed: true } : { committed: true, selected: [], picks: {} };
  const { correct } = gradeQuiz(quiz, { ...answer, ...patch });
  const earned = !!answer.earned || correct === true || (correct === null && !!answer.missed);
  return { ...patch, earned, missed: !!answer.missed || correct === false };
}
