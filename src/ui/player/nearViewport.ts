import { useEffect, useState, type RefObject } from 'react';

/** How far outside the viewport something counts as near: half a screen above and below. */
const NEAR_MARGIN = '50% 0px';

/** How long the page must go without a new part to draw before out-of-sight ones are drawn anyway. */
export const DRAW_ANYWAY_AFTER_MS = 3000;

/**
 * True once the element is within a screen of the viewport, and from then on. A lesson can hold
 * seven players and two dashboards: drawing every timeline and chart as its run arrives costs a
 * phone seconds of main-thread work while the learner reads the first paragraph. What is out of
 * sight is drawn when the learner scrolls near it, or, so that find-in-page, screen readers and
 * a quick jump see everything, once the page has been left alone for DRAW_ANYWAY_AFTER_MS, one
 * part per idle period.
 */
export function useNearViewport(ref: RefObject<Element | null>, enabled = true): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || near || !element) return;
    if (typeof IntersectionObserver !== 'function') {
      setNear(true);
      return;
    }
    const reveal = () => setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && reveal(), { rootMargin: NEAR_MARGIN });
    observer.observe(element);
    const cancel = drawAnywayLater(reveal);
    return () => {
      observer.disconnect();
      cancel();
    };
  }, [ref, enabled, near]);
  return near;
}

// Parts waiting to be drawn anyway, oldest first; the wait before drawing them, or whether
// they are being drawn.
const waiting: (() => void)[] = [];
let wait: ReturnType<typeof setTimeout> | undefined;
let draining = false;

function drawAnywayLater(reveal: () => void): () => void {
  waiting.push(reveal);
  // Each new part (a player whose run just arrived) restarts the wait: the page is still busy.
  if (!draining) {
    clearTimeout(wait);
    wait = setTimeout(() => {
      draining = true;
      drainOne();
    }, DRAW_ANYWAY_AFTER_MS);
  }
  return () => {
    const at = waiting.indexOf(reveal);
    if (at !== -1) waiting.splice(at, 1);
  };
}

/** Draws one waiting part when the browser is idle, then the next in the idle period after. */
function drainOne(): void {
  const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback : (run: () => void) => setTimeout(run, 50);
  idle(() => {
    waiting.shift()?.();
    if (waiting.length > 0) drainOne();
    else draining = false;
  });
}
