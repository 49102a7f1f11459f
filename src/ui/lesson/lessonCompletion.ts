import type { LessonEntry } from '../../lessons/lessonIndex';
import { quizEarned, type QuizAnswer } from '../progress/progressData';

/** How far a learner is through one lesson's interactive parts. */
export interface Completion {
  quizzes: number;
  quizzesAnswered: number;
  /** The lesson's first scenario (or compare) block, whose run counts; null without one. */
  mainScenario: string | null;
  mainScenarioRun: boolean;
  /** Every quiz earned and the main scenario run: the lesson can be marked done. */
  complete: boolean;
}

/**
 * What a lesson asks before it counts as done: each quiz answered right at least once (or its
 * answer shown after a wrong try: QuizAnswer.earned) and
 * its main scenario run to the end or to a broken invariant. A lesson with neither is complete
 * only when the learner says so. It reads the lesson's index entry (see lessonEntry), so it is known
 * before the lesson's body has loaded.
 */
export function completionOf(
  lesson: Pick<LessonEntry, 'frontmatter' | 'quizIds' | 'mainScenario'>,
  quizzes: Record<string, QuizAnswer>,
  ran: Record<string, true>,
): Completion {
  const slug = lesson.frontmatter.slug;
  const { quizIds, mainScenario } = lesson;
  const quizzesAnswered = quizIds.filter((id) => quizEarned(quizzes[`${slug}/${id}`])).length;
  const mainScenarioRun = mainScenario === null || !!ran[`${slug}/${mainScenario}`];
  const hasWork = quizIds.length > 0 || mainScenario !== null;
  return {
    quizzes: quizIds.length,
    quizzesAnswered,
    mainScenario,
    mainScenarioRun,
    complete: hasWork && quizzesAnswered === quizIds.length && mainScenarioRun,
  };
}
