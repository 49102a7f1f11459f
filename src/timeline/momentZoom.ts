import type { TimelineModel } from './modelTypes';

/**
 * Two writes' labels ("token 1 ✕" above, "Barista A" below, ~60 px each) side by side, with air:
 * closer than this, one of them must lose its labels.
 */
export const KEY_WRITE_ROOM_PX = 80;

/** Below this plot width (a phone's is ~180 px) the first view may zoom in on the key moment. */
export const NARROW_PLOT_PX = 400;

/** The most the first view zooms in, so a learner still sees a fair stretch of the run around it. */
const MAX_MOMENT_ZOOM = 8;

/**
 * The zoom the first view of a run starts at: 1 (the whole run) unless the plot is narrow and
 * the writes the run is about (refused ones, those a broken invariant names, and their
 * neighbours) sit so close
 * that their labels cannot all be shown. Then it is just enough for the closest two to get
 * `KEY_WRITE_ROOM_PX` apart, so on a phone the double write is readable without a pinch; the
 * playhead's follow keeps it in view as the run plays, and 0 still fits the whole run.
 * @example const k = momentZoomK(model, 180, ctx.x0) // 2.4 when the double write is 33 px apart
 */
export function momentZoomK(model: TimelineModel, plotWidthPx: number, x0: (ms: number) => number): number {
  if (plotWidthPx >= NARROW_PLOT_PX) return 1;
  const proof = new Set(model.violations.flatMap((v) => v.eventIds));
  const key = (w: TimelineModel['writes'][number]) => !w.accepted || proof.has(w.id);
  // A write beside a key one counts too: a verdict may name only the first two of three writers.
  const writes = [...model.writes].sort((a, b) => a.at - b.at);
  let closestPx = Infinity;
  for (let i = 1; i < writes.length; i++) {
    const [a, b] = [writes[i - 1]!, writes[i]!];
    if (key(a) || key(b)) closestPx = Math.min(closestPx, x0(b.at) - x0(a.at));
  }
  if (!(closestPx < KEY_WRITE_ROOM_PX)) return 1;
  return Math.min(MAX_MOMENT_ZOOM, KEY_WRITE_ROOM_PX / Math.max(1, closestPx));
}
