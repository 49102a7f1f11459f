import { hideTicksUnderTag, drawAxis } from './layers/axis';
import { canvasJobs, ensureCanvas } from './layers/canvasLayer';
import { positionBands, positionStretch } from './layers/intervals';
import { layoutLabels } from './layers/labelPass';
import { positionCaptions } from './layers/labels';
import { updateLaneStates } from './layers/lanes';
import { positionGlyphs } from './layers/marks';
import { positionMessages } from './layers/messages';
import { positionPlayhead } from './layers/playhead';
import { positionScrollCues, yieldCueTab } from './layers/scrollCues';
import { allRows, rowsToPaint } from './layers/visibleRows';
import { laneStateAt } from './model';
import type { Rows } from './layers/paintJob';
import { zoomedX, type TimelineState } from './timelineState';

/**
 * What changes from frame to frame once a run is drawn: the zoom (one transform for the bars,
 * per-element moves for the few shaped marks), the playhead and what has not happened yet, the
 * selection. None of it re-joins data; drawModel.ts does that when the run itself changes.
 */

/** Runs applyZoom on the next animation frame of the svg's window (once, however often asked). */
export function scheduleFrame(state: TimelineState): void {
  if (state.frame !== null) return;
  state.frame = windowOf(state).requestAnimationFrame(() => {
    state.frame = null;
    applyZoom(state);
  });
}

/** Cancels a frame scheduleFrame asked for. */
export function cancelFrame(state: TimelineState): void {
  if (state.frame !== null) windowOf(state).cancelAnimationFrame(state.frame);
  state.frame = null;
}

/**
 * The window the svg lives in. The renderer never reaches for a global document or window:
 * the host hands it an svg, and the svg's own document says where it is (a browser tab, or a
 * DOM made in Node to render the gallery).
 */
export function windowOf(state: TimelineState): Window & typeof globalThis {
  const win = state.svg.ownerDocument.defaultView;
  if (!win) throw new Error('This svg is not in a window, so it cannot animate; render it once, without zooming.');
  return win;
}

/** True when motion should be off: the host said so, or the user's system asks for less motion. */
export function reducedMotion(state: TimelineState): boolean {
  if (state.view.reducedMotion !== undefined) return state.view.reducedMotion;
  const win = state.svg.ownerDocument.defaultView;
  return typeof win?.matchMedia === 'function' && win.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** One zoom frame: one transform for the bars, per-element moves for the few shaped marks. */
export function applyZoom(state: TimelineState): void {
  const ctx = state.ctx;
  if (!ctx) return;
  // Read before anything is written, so finding the rows on screen forces no extra layout.
  const rows = canvasRows(state);
  const x = zoomedX(state);
  const { groups: g } = state;
  positionStretch(g.stretch, state.transform.x, state.transform.k);
  positionBands(g.bandsBack, x);
  positionBands(g.bandsFront, x);
  if (!state.dense) positionMessages(ctx, g.messages, x);
  layoutLabels(ctx, positionCaptions(ctx, g.captions, x), positionGlyphs(ctx, g.glyphs, x));
  positionScrollCues(ctx, g.scrollCues, x);
  drawAxis(g.axis, state.transform.rescaleX(ctx.x0), ctx.layout.plotWidthPx);
  placePlayhead(state, rows);
}

function placePlayhead(state: TimelineState, rows: Rows | null): void {
  const ctx = state.ctx!;
  const x = zoomedX(state);
  const cursorX = x(state.view.cursorMs);
  const tag = positionPlayhead(ctx, state.groups.veil, state.groups.head, state.pastClip, cursorX, state.view.cursorMs);
  hideTicksUnderTag(state.groups.axis, state.transform.rescaleX(ctx.x0), tag.away ? null : tag);
  yieldCueTab(state.groups.scrollCues, tag.away);
  if (rows) paintCanvas(state, cursorX, rows);
}

/**
 * Shows the dense layers for the current zoom, on the rows of the plot that are on screen (all
 * of them for an exact paint, which an export copies whole).
 */
function paintCanvas(state: TimelineState, cursorX: number, rows: Rows): void {
  const ctx = state.ctx!;
  const { plotWidthPx } = ctx.layout;
  state.rows = rows;
  const canvas = ensureCanvas(ctx, state.groups.canvas, rows);
  const cursorId = state.view.cursorId ?? Infinity;
  const view = { k: state.transform.k, tx: state.transform.x };
  const jobs = (v: typeof view, fromPx: number, toPx: number, r: typeof rows) =>
    canvasJobs(
      ctx,
      { x: (ms) => ctx.x0(ms) * v.k + v.tx, fromPx, toPx, rows: r, cursorId },
      state.ticks,
      state.messages!,
      state.heavy,
    );
  state.raster.show(canvas, plotWidthPx, rows, view, `${state.version}|${cursorId}`, cursorX, jobs, state.sharpNext);
  state.sharpNext = false;
}

/**
 * The rows the canvas should cover where the svg is now: null when nothing is on the canvas,
 * every row for an exact paint or in no window (as in Node).
 */
function canvasRows(state: TimelineState): Rows | null {
  if (!state.dense || !state.ctx) return null;
  const { plotHeightPx, axisHeightPx } = state.ctx.layout;
  const win = state.svg.ownerDocument.defaultView;
  if (state.sharpNext || !win?.innerHeight) return allRows(plotHeightPx);
  const svgTopPx = state.passSvgTopPx ?? state.svg.getBoundingClientRect().top;
  return rowsToPaint(svgTopPx + axisHeightPx, win.innerHeight, plotHeightPx, state.rows);
}

/**
 * After a scroll: repaints the canvas when rows without paint came into view. Cheap when they
 * did not (one rectangle read), so it can run on every scroll frame.
 */
export function checkRows(state: TimelineState): void {
  if (!state.rows) return;
  const rows = canvasRows(state);
  if (rows && rows !== state.rows) paintCanvas(state, zoomedX(state)(state.view.cursorMs), rows);
}

/** Moves the playhead, hides what has not happened yet, updates lane states. */
export function applyCursor(state: TimelineState): void {
  const ctx = state.ctx;
  if (!ctx) return;
  const rows = canvasRows(state);
  const upTo = state.view.cursorId ?? Infinity;
  toggleFuture(state, upTo);
  updateLaneStates(state.groups.labels, laneStateAt(ctx.model, state.view.cursorMs, upTo), ctx.layout.labelWidthPx);
  if (state.view.followCursor !== false) {
    const px = zoomedX(state)(state.view.cursorMs);
    const w = ctx.layout.plotWidthPx;
    if (px < 0 || px > w)
      state.zoom.translateBy(state.groups.plot, (w * (px > w ? 0.8 : 0.2) - px) / state.transform.k, 0);
  }
  placePlayhead(state, rows);
}

/** Flips only the marks whose ids lie between the old and the new cursor. */
function toggleFuture(state: TimelineState, upTo: number): void {
  const before = state.shownUpTo;
  if (before === upTo) return;
  const lo = Math.min(before, upTo);
  const hi = Math.max(before, upTo);
  const start = firstIndexAbove(state.byId, lo);
  for (let i = start; i < state.byId.length && state.byId[i]![0] <= hi; i++) {
    state.byId[i]![1].classList.toggle('tl-future', upTo < before);
  }
  state.shownUpTo = upTo;
}

/** Index of the first entry whose id is greater than `id` (binary search). */
function firstIndexAbove(entries: readonly [number, Element][], id: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]![0] <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function applySelection(state: TimelineState): void {
  for (const el of state.selected) el.classList.remove('tl-selected');
  state.selected = [];
  const id = state.view.selectedId;
  if (id === undefined) return;
  const start = firstIndexAbove(state.byId, id - 1);
  for (let i = start; i < state.byId.length && state.byId[i]![0] === id; i++) {
    const el = state.byId[i]![1];
    if (!el.classList.contains('tl-mark')) continue;
    el.classList.add('tl-selected');
    state.selected.push(el);
  }
}
