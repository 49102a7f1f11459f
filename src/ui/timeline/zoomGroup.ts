import { createContext } from 'react';
import type { TimeWindow } from '../../timeline/renderTimeline';

/**
 * Timelines that zoom and pan together, like the two sides of a compare block: a change of
 * window on one is shown on the others. Windows are times, not pixels, so two runs of
 * different lengths still line up on the same seconds.
 */
export interface ZoomGroup {
  /** Adds a timeline (its `show` applies a window); it takes the group's last window at once. Returns a leave function. */
  join(show: (window: TimeWindow) => void): () => void;
  /** A member's window changed (the learner zoomed it): the others follow. */
  moved(show: (window: TimeWindow) => void, window: TimeWindow): void;
}

/** A new, empty group. */
export function zoomGroup(): ZoomGroup {
  const members = new Set<(window: TimeWindow) => void>();
  let last: TimeWindow | null = null;
  // Showing a window on a member makes it report a change of its own: that echo is ignored.
  let copying = false;
  const showOn = (targets: Iterable<(window: TimeWindow) => void>, window: TimeWindow) => {
    copying = true;
    try {
      for (const show of targets) show(window);
    } finally {
      copying = false;
    }
  };
  return {
    join(show) {
      members.add(show);
      if (last) showOn([show], last);
      return () => members.delete(show);
    },
    moved(from, window) {
      if (copying) return;
      last = window;
      showOn(
        [...members].filter((show) => show !== from),
        window,
      );
    },
  };
}

/** The group the timelines under it belong to (none by default: each zooms on its own). */
export const ZoomGroupContext = createContext<ZoomGroup | null>(null);
