import type { XOf } from './context';

/**
 * The shape of canvas work, shared by the layers that make it (canvasLayer, denseCanvas) and
 * the raster that schedules it (canvasRaster), so none of them needs to import another for it.
 */

/** One slice of a canvas painting; a painting is a list of them, so it can be spread over frames. */
export type PaintJob = (c: CanvasRenderingContext2D) => void;

/** A band of plot rows, top inclusive, bottom exclusive, in plot pixels. */
export interface Rows {
  topPx: number;
  bottomPx: number;
}

/** What a canvas painting covers: plot pixels fromPx..toPx of `rows`, marks up to event cursorId. */
export interface PaintRange {
  x: XOf;
  fromPx: number;
  toPx: number;
  rows: Rows;
  cursorId: number;
}
