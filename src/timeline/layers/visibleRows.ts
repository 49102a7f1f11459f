import type { Rows } from './paintJob';

/**
 * Which rows of a tall plot the canvas paints. Fifty lanes make a plot 3,200 px tall while a
 * screen shows about 900 of it, so the raster paints the rows on screen and a margin above and
 * below, and the band moves only when a scroll leaves it (a short scroll repaints nothing).
 */

/** Rows are snapped to a lane's height, so bands differ only when they must. */
const SNAP_PX = 64;

/**
 * The rows to paint for a plot whose top is `plotTopPx` below the top of the viewport (negative
 * when scrolled past) in a viewport `viewportHeightPx` tall: `current` while it still covers
 * what is on screen (and is not much taller than a fresh band, as after an export's paint of
 * every row), else what is on screen with a quarter of a viewport either side.
 * @example rowsToPaint(-1000, 900, 3200, null) // { topPx: 768, bottomPx: 2176 }
 */
export function rowsToPaint(
  plotTopPx: number,
  viewportHeightPx: number,
  plotHeightPx: number,
  current: Rows | null,
): Rows {
  const shownTop = clamp(-plotTopPx, 0, plotHeightPx);
  const shownBottom = clamp(viewportHeightPx - plotTopPx, 0, plotHeightPx);
  const marginPx = Math.max(SNAP_PX * 2, viewportHeightPx / 4);
  const covers =
    current && current.topPx <= shownTop && current.bottomPx >= shownBottom && current.bottomPx <= plotHeightPx;
  if (covers && current.bottomPx - current.topPx <= shownBottom - shownTop + 2 * marginPx + 2 * SNAP_PX) return current;
  const topPx = clamp(Math.floor((shownTop - marginPx) / SNAP_PX) * SNAP_PX, 0, plotHeightPx);
  const bottomPx = clamp(Math.ceil((shownBottom + marginPx) / SNAP_PX) * SNAP_PX, 0, plotHeightPx);
  // Off screen, the band is the margin next to the nearer edge: never empty, so a canvas exists.
  return bottomPx > topPx
    ? { topPx, bottomPx }
    : { topPx: Math.max(0, plotHeightPx - SNAP_PX), bottomPx: plotHeightPx };
}

/** Every row of the plot (exports, and documents without a viewport). */
export function allRows(plotHeightPx: number): Rows {
  return { topPx: 0, bottomPx: plotHeightPx };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Whether anything between plot rows `y0` and `y1` (either order) lies in `rows`: painters skip marks that do not. */
export function inRows(rows: Rows, y0: number, y1: number): boolean {
  return Math.max(y0, y1) >= rows.topPx && Math.min(y0, y1) <= rows.bottomPx;
}
