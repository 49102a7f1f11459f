import { useEffect, useState } from 'react';
import type { Lesson } from '../../lessons/types';
import { afterNextPaint } from '../player/afterPaint';
import { requestFirstRuns } from '../player/firstRuns';
import { useRoute } from '../routing/useRoute';
import { isPlayerBlock, loadPlayerCode } from './BlockView';

/**
 * How many of a lesson's blocks the page shows: those up to and including its first player,
 * then, once that player's code and shipped run have arrived and a frame has been painted with
 * them, all of them. Below the first player a lesson can hold six more players, quizzes and
 * prose; building and laying them out first kept the learner's first player waiting (lessons 1
 * and 9 on a 2-core desktop: ~30 ms of a ~320 ms start, medians of 15 interleaved loads). A share
 * link opens at whichever player it is for: every block shows at once.
 */
export function useBlocksShown(lesson: Lesson): number {
  const route = useRoute();
  const shared = route.name === 'lesson' && route.params.get('run') !== null;
  const firstPart = lesson.blocks.findIndex(isPlayerBlock) + 1;
  const [wholeLesson, setWholeLesson] = useState<Lesson | null>(null);
  const whole = firstPart === 0 || shared || wholeLesson === lesson;

  useEffect(() => {
    if (firstPart === 0 || wholeLesson === lesson) return;
    // Once shown whole, a lesson stays whole (a share link's parameter may go from the address).
    if (shared) {
      setWholeLesson(lesson);
      return;
    }
    let live = true;
    let cancel = () => {};
    void Promise.all([loadPlayerCode(lesson.blocks[firstPart - 1]!), requestFirstRuns(lesson.frontmatter.slug)]).then(() => {
      if (live) cancel = afterNextPaint(() => setWholeLesson(lesson));
    });
    return () => {
      live = false;
      cancel();
    };
  }, [lesson, firstPart, shared, wholeLesson]);

  return whole ? lesson.blocks.length : firstPart;
}
