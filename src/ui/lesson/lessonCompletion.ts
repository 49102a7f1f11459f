import type { Lesson } from '../../lessons/types';
import type { QuizAnswer } from '../progress/progressData';

/** How far a learner is through one lesson's interactive parts. */
export interface Completion {
  quizzes: number;
  quizzesAnswered: number;
  /** The lesson's first scenario (or compare) block, whose run counts; null without one. */
  mainScenario: string | null;
  mainScenarioRun: boolean;
  /** Every quiz committed and the main scenario run: the lesson can be marked done. */
  complete: boolean;
}

/**
 * What a lesson asks before it counts as done: each quiz answered (or "I thought about it") and
 * its main scenario run to the end or to a broken invariant. A lesson with neither is complete
 * only when the learner says so.
 */
export function completionOf(lesson: Lesson, quizzes: Record<string, QuizAnswer>, ran: Record<string, true>): Completion {
  const slug = lesson.frontmatter.slug;
  const quizIds = lesson.blocks.flatMap((b) => (b.kind === 'quiz' ? [b.id] : []));
  const quizzesAnswered = quizIds.filter((id) => quizzes[`${slug}/${id}`]?.committed).length;
  const main = lesson.blocks.find((b) => b.kind === 'scenario' || b.kind === 'compare');
  const mainScenario = main && 'id' in main ? main.id : null;
  const mainScenarioRun = mainScenario === null || !!ran[`${slug}/${mainScenario}`];
  const hasWork = quizIds.length > 0 || mainScenario !== null;
  return { quizzes: quizIds.length, quizzesAnswered, mainScenario, mainScenarioRun, complete: hasWork && quizzesAnswered === quizIds.length && mainScenarioRun };
}
