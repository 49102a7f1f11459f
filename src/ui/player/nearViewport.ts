import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** How far outside the viewport something counts as near: half a screen above and below. */
const NEAR_MARGIN_SCREENS = 0.5;
const NEAR_MARGIN = `${NEAR_MARGIN_SCREENS * 100}% 0px`;

/** The longest a queued part waits for an idle period before it is drawn anyway. */
const IDLE_AT_MOST_MS = 1000;

/** How long the page must go without a new part to draw before out-of-sight ones are drawn anyway. */
export const DRAW_ANYWAY_AFTER_MS = 3000;

/**
 * Parts waiting for their turn, revealed one per idle period, oldest first. Each new part
 * restarts the wait (`afterMs`): while parts keep arriving, the page is still busy.
 */
class IdleQueue {
  private readonly waiting: (() => void)[] = [];
  private wait: ReturnType<typeof setTimeout> | undefined;
  private draining = false;

  constructor(private readonly afterMs: number) {}

  /** Queues `reveal`; the returned function takes it out again. */
  add(reveal: () => void): () => void {
    this.waiting.push(reveal);
    if (!this.draining) {
      clearTimeout(this.wait);
      this.wait = setTimeout(() => {
        this.draining = true;
        this.drainOne();
      }, this.afterMs);
    }
    return () => {
      const at = this.waiting.indexOf(reveal);
      if (at !== -1) this.waiting.splice(at, 1);
    };
  }

  private drainOne(): void {
    // An idle period may never come on a busy machine (a CI run beside two CPU hogs waited 30 s
    // and more for a player the learner had just revealed): a part waits for one at most a second.
    const idle =
      typeof requestIdleCallback === 'function'
        ? (run: () => void) => requestIdleCallback(run, { timeout: IDLE_AT_MOST_MS })
        : (run: () => void) => setTimeout(run, 50);
    idle(() => {
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.drainOne();
      else this.draining = false;
    });
  }
}

/**
 * Out-of-sight parts drawn anyway once the page has been left alone: so that find-in-page,
 * screen readers and a quick jump see everything.
 */
const drawAnyway = new IdleQueue(DRAW_ANYWAY_AFTER_MS);

/** Out-of-sight parts mounted as soon as the page has a moment: after the ones in sight. */
const mountSoon = new IdleQueue(0);

/**
 * True once the element is within a screen of the viewport, and from then on. A lesson can hold
 * seven players and two dashboards: drawing every timeline and chart as its run arrives costs a
 * phone seconds of main-thread work while the learner reads the first paragraph. What is out of
 * sight is drawn when the learner scrolls near it, or once the page has been left alone for
 * DRAW_ANYWAY_AFTER_MS, one part per idle period.
 */
export function useNearViewport(ref: RefObject<Element | null>, enabled = true, initiallyNear = false): boolean {
  return useNearOrQueued(ref, enabled, drawAnyway, NEAR_MARGIN_SCREENS, initiallyNear) !== null;
}

/**
 * 'near' at once for an element on screen (or once the learner scrolls near it), otherwise
 * 'queued' once the page is idle (one element per idle period, in the order they asked); null
 * until then. A lesson's players mount this way: the one the learner is looking at first, alone,
 * and the others just after, each in a short task of its own.
 */
export function useNearOrSoon(ref: RefObject<Element | null>, enabled = true): Revealed | null {
  return useNearOrQueued(ref, enabled, mountSoon, 0, false);
}

/** Why an element was revealed: it is near the viewport, or its turn in the idle queue came. */
export type Revealed = 'near' | 'queued';

/** `atOnceMarginScreens`: how near, in screens, counts as near when the element first appears. */
function useNearOrQueued(
  ref: RefObject<Element | null>,
  enabled: boolean,
  queue: IdleQueue,
  atOnceMarginScreens: number,
  initiallyNear: boolean,
): Revealed | null {
  const [revealed, setRevealed] = useState<Revealed | null>(initiallyNear ? 'near' : null);
  const near = revealed !== null;
  // Near already when it appears (the player a learner opened the page at, or scrolled to while
  // it loaded): said before the first paint, so it is drawn in that frame, rather than after the
  // frame it takes the observer to first report.
  useLayoutEffect(() => {
    const element = ref.current;
    if (enabled && !near && element && isNear(element, atOnceMarginScreens)) setRevealed('near');
  }, [ref, enabled, near, atOnceMarginScreens]);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || near || !element) return;
    if (typeof IntersectionObserver !== 'function') {
      setRevealed('near');
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && setRevealed('near'),
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(element);
    const cancel = queue.add(() => setRevealed('queued'));
    return () => {
      observer.disconnect();
      cancel();
    };
  }, [ref, enabled, near, queue]);
  return revealed;
}

/** Whether the element is within `marginScreens` of the viewport now: the observer's test, done at once. */
function isNear(element: Element, marginScreens: number): boolean {
  const { top, bottom } = element.getBoundingClientRect();
  const margin = window.innerHeight * marginScreens;
  return bottom >= -margin && top <= window.innerHeight + margin;
}
