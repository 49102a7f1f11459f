import { drawModel } from './drawModel';
import { applyCursor, applySelection, reducedMotion } from './frame';
import type { TimelineModel } from './modelTypes';
import { timelineFor } from './setupTimeline';
import { denseThresholdOf, type TimelineHandle, type TimelineState, type TimelineViewOptions } from './timelineState';

export type { TimeWindow, TimelineHandle, TimelineViewOptions } from './timelineState';

/**
 * The timeline's entry point. The work is split by when it happens: setupTimeline.ts builds an
 * svg's skeleton once, drawModel.ts joins a run's marks when the run (or the width) changes,
 * frame.ts moves what a zoom, a playhead step or a selection moves, interaction.ts answers the
 * keyboard and pointer. timelineState.ts holds the types they share.
 */

/**
 * Draws `model` into `svg` and keeps it in sync on later calls: a new model re-joins marks by
 * key; a new cursor or selection only moves the playhead and flips a few marks. Imports no React.
 * @example const handle = renderTimeline(svgEl, buildTimelineModel(events, verdicts), { cursorMs: 0, width: 900 });
 */
export function renderTimeline(svg: SVGSVGElement, model: TimelineModel, view: TimelineViewOptions): TimelineHandle {
  const state = timelineFor(svg, view);
  // A dense run's canvas covers the rows on screen (frame.ts): where the svg is, read here once,
  // before anything is written. Read after the marks were drawn, it laid every new mark out (a
  // herd's 700: ~20 ms), and again after the zoom had placed them.
  const dense = state.dense || model.messages.length > denseThresholdOf(view);
  if (dense && svg.ownerDocument.defaultView?.innerHeight) state.passSvgTopPx = svg.getBoundingClientRect().top;
  try {
    draw(state, model, view);
  } finally {
    state.passSvgTopPx = undefined;
  }
  return state.handle;
}

function draw(state: TimelineState, model: TimelineModel, view: TimelineViewOptions): void {
  const prevView = state.view;
  state.view = view;
  if (
    state.model !== model ||
    state.ctx?.layout.width !== view.width ||
    denseThresholdOf(view) !== denseThresholdOf(prevView)
  ) {
    drawModel(state, model, view);
  }
  // Only write what changed: a rewritten text node invalidates style and layout for the whole svg.
  const title = view.title ?? 'Timeline of the run';
  if (state.root.attr('aria-label') !== title) {
    state.root.attr('aria-label', title);
    state.root.select('title').text(title);
  }
  const animate = !reducedMotion(state);
  if (state.root.classed('tl-animate') !== animate) state.root.classed('tl-animate', animate);
  applyCursor(state);
  applySelection(state);
}
