import { hitTestDense } from '../layers/denseCanvas';
import type { TimelineState } from '../timelineState';

/**
 * On a heavy run's canvas, the event under the pointer, found by geometry (the canvas has no
 * element to hit), with the pointer's place in the svg. Null over a drawn mark, off the plot, or
 * on a run light enough to draw as elements.
 */
export function canvasHit(state: TimelineState, event: MouseEvent): { id: number; x: number; y: number } | null {
  const ctx = state.ctx;
  if (!state.heavy || !ctx || (event.target as Element).closest('.tl-mark')) return null;
  const box = state.svg.getBoundingClientRect();
  const px = event.clientX - box.left - ctx.layout.labelWidthPx;
  const py = event.clientY - box.top - ctx.layout.axisHeightPx;
  if (px < 0 || py < 0 || px > ctx.layout.plotWidthPx) return null;
  const { k, x } = state.transform;
  const id = hitTestDense(ctx, state.heavy, (ms) => ctx.x0(ms) * k + x, px, py, state.view.cursorId ?? Infinity);
  return id === null ? null : { id, x: event.clientX - box.left, y: event.clientY - box.top };
}
