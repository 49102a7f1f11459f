import { useEffect, useRef } from 'react';
import type { LessonEntry } from '../../lessons/lessonIndex';
import { useProgress } from '../progress/progressStore';
import { useVisits } from '../progress/visits';
import { completionOf, type Completion } from './lessonCompletion';

/**
 * The lesson's completion, and the moment it becomes complete while the learner is on the page:
 * then the lesson is marked done. Only that moment marks it, so a learner who unmarks a lesson
 * keeps it unmarked (the footer button undoes it either way).
 */
export function useAutoComplete(lesson: LessonEntry): Completion {
  const quizzes = useProgress((s) => s.quizzes);
  const ran = useVisits((s) => s.ran);
  const completion = completionOf(lesson, quizzes, ran);
  const wasComplete = useRef(completion.complete);
  const slug = lesson.frontmatter.slug;
  useEffect(() => {
    if (completion.complete && !wasComplete.current && !useProgress.getState().completed[slug])
      useProgress.getState().setDone(slug, true);
    wasComplete.current = completion.complete;
  }, [completion.complete, slug]);
  return completion;
}
