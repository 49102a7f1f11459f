import type { TimelineModel } from './modelTypes';

/** Below this plot width (a phone's is ~180 px) the first view may zoom in on the key moment. */
export const NARROW_PLOT_PX = 400;

/**
 * Two writes' labels ("token 1 ✕" above, "Barista A" below, ~60 px each) side by side, with air:
 * where to start looking for a zoom that labels them all.
 */
const KEY_WRITE_ROOM_PX = 80;

/** The most the first view zooms in, so a learner still sees a fair stretch of the run around it. */
const MAX_MOMENT_ZOOM = 8;

/** Each try zooms in this much more than the last. */
const ZOOM_STEP = 1.25;

/** The two writes a run is about that sit closest together: shown, each must keep its labels. */
export interface KeyMoment {
  writeIds: [number, number];
  fromMs: number;
  toMs: number;
}

/**
 * The closest two of the run's key writes: refused ones, those a broken invariant names, and
 * the writes next to them (a verdict may name only the first two of three writers). Null when
 * there are fewer than two.
 */
export function keyMoment(model: TimelineModel): KeyMoment | null {
  const proof = new Set(model.violations.flatMap((v) => v.eventIds));
  const writes = [...model.writes].sort((a, b) => a.at - b.at);
  const key = (i: number) => writes[i] !== undefined && (!writes[i].accepted || proof.has(writes[i].id));
  const chosen = writes.filter((_, i) => key(i) || key(i - 1) || key(i + 1));
  let best: KeyMoment | null = null;
  for (let i = 1; i < chosen.length; i++) {
    const [a, b] = [chosen[i - 1]!, chosen[i]!];
    if (!best || b.at - a.at < best.toMs - best.fromMs) best = { writeIds: [a.id, b.id], fromMs: a.at, toMs: b.at };
  }
  return best;
}

/**
 * The zoom the player's first view of a run starts at: 1 (the whole run) unless the plot is
 * narrow and, shown whole, one of its closest two key writes loses its labels (`labelledAt(1)` is false).
 * Then the least zoom, from the one that puts the closest two `KEY_WRITE_ROOM_PX` apart and up
 * by steps, at which the label pass labels both (the caller draws it to find out). So on a
 * phone the double write is readable without a pinch; the playhead's follow keeps it in view as
 * the run plays, and 0 still fits the whole run. 1 when no zoom up to 8× helps.
 * @example momentZoomK(model, 180, x0, (k) => drawnAt(k).allLabelled) // 2.4 for a double write 33 px apart
 */
export function momentZoomK(
  model: TimelineModel,
  plotWidthPx: number,
  x0: (ms: number) => number,
  labelledAt: (k: number, moment: KeyMoment) => boolean,
): number {
  const moment = plotWidthPx < NARROW_PLOT_PX ? keyMoment(model) : null;
  if (!moment || labelledAt(1, moment)) return 1;
  const closestPx = x0(moment.toMs) - x0(moment.fromMs);
  for (
    let k = Math.max(ZOOM_STEP, KEY_WRITE_ROOM_PX / Math.max(1, closestPx));
    k <= MAX_MOMENT_ZOOM * ZOOM_STEP;
    k *= ZOOM_STEP
  ) {
    const tried = Math.min(k, MAX_MOMENT_ZOOM);
    if (labelledAt(tried, moment)) return tried;
    if (tried === MAX_MOMENT_ZOOM) break;
  }
  return 1;
}
