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
 * prose; building and laying them out first kept the learner's first player waiting (lesson 9
 * on a 2-core desktop: 319 → 291 ms, medians of 21 interleaved loads). A share link opens at
 * whichever player it is for: every block shows at once.
 */
export function useBlocksShown(lesson: Lesson): number {
  const route = useRoute();
  const shared = route.name === 'lesson' && route.params.get('run') !== null;
  const firstPart = lesson.blocks.findIndex(isPlayerBlock) + 1;
  const slug = lesson.frontmatter.slug;
  // Once shown whole, a lesson stays whole: when a share link's parameter leaves the address, and
  // when `npm run dev` hot-reloads it (a page cut short for a frame would lose the editor's place).
  const [wholeSlug, setWholeSlug] = useState<string | null>(null);
  const whole = firstPart === 0 || shared || wholeSlug === slug;

  useEffect(() => {
    if (firstPart === 0 || wholeSlug === slug) return;
    if (shared) {
      setWholeSlug(slug);
      return;
    }
    let live = true;
    let cancel = () => {};
    void Promise.all([loadPlayerCode(lesson.blocks[firstPart - 1]!), requestFirstRuns(slug)]).then(() => {
      if (live) cancel = afterNextPaint(() => setWholeSlug(slug));
    });
    return () => {
      live = false;
      cancel();
    };
  }, [lesson, slug, firstPart, shared, wholeSlug]);

  return whole ? lesson.blocks.length : firstPart;
}
