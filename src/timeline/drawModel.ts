import { select } from 'd3-selection';
import { zoomIdentity } from 'd3-zoom';
import { messageIndexOf, removeCanvas } from './layers/canvasLayer';
import { makeContext } from './layers/context';
import { denseMarksOf } from './layers/denseCanvas';
import { drawDensity } from './layers/density';
import { bandsOf, drawBands, drawStretchIntervals } from './layers/intervals';
import { captionsOf, drawCaptions, drawKeyRowLabels } from './layers/labels';
import { drawLaneLabels, drawLaneStripes } from './layers/lanes';
import { drawGlyphs, glyphsOf } from './layers/marks';
import { drawMessages } from './layers/messages';
import { drawPlayhead } from './layers/playhead';
import { drawScrollCues } from './layers/scrollCues';
import { drawTicks, tickMarksOf } from './layers/ticks';
import { markInfo } from './markInfo';
import type { TimelineModel } from './modelTypes';
import { baseTimeScale, computeLayout } from './scales';
import { applyZoom } from './frame';
import { momentZoomK, type KeyMoment } from './momentZoom';
import { denseThresholdOf, windowTransform, type TimelineState, type TimelineViewOptions } from './timelineState';

/** Joins every layer against a new model (or new width). */
export function drawModel(state: TimelineState, model: TimelineModel, view: TimelineViewOptions): void {
  const runChanged = state.model !== model;
  const newRun = state.model !== null && runChanged;
  const layout = computeLayout(model.lanes.length, view.width);
  const oldWidth = state.ctx?.layout.plotWidthPx;
  const ctx = makeContext(model, layout, baseTimeScale(model, layout), state.prefix);
  state.ctx = ctx;
  state.model = model;
  const { groups: g } = state;
  state.root
    .attr('width', layout.width)
    .attr('height', layout.height)
    .attr('viewBox', `0 0 ${layout.width} ${layout.height}`);
  placeLabels(state);
  g.axis.attr('transform', `translate(${layout.labelWidthPx},${layout.axisHeightPx})`);
  g.plot.attr('transform', `translate(${layout.labelWidthPx},${layout.axisHeightPx})`);
  g.plot.select('rect.tl-plot-bg').attr('width', layout.plotWidthPx).attr('height', layout.plotHeightPx);
  g.plot.select('rect.tl-plot-frame').attr('width', layout.plotWidthPx).attr('height', layout.plotHeightPx);
  select(state.plotClip)
    .attr('x', 0)
    .attr('y', -2)
    .attr('width', layout.plotWidthPx)
    .attr('height', layout.plotHeightPx + 4);
  select(state.pastClip).attr('height', layout.plotHeightPx + 4);

  const extent: [[number, number], [number, number]] = [
    [0, 0],
    [layout.plotWidthPx, layout.plotHeightPx],
  ];
  state.zoom
    .extent(extent)
    .translateExtent(extent)
    .scaleExtent([1, Math.max(2, model.endMs / 2)]);
  if (oldWidth && oldWidth !== layout.plotWidthPx) {
    // Keep the same stretch of time in view when the container resizes.
    state.transform = zoomIdentity
      .translate((state.transform.x * layout.plotWidthPx) / oldWidth, 0)
      .scale(state.transform.k);
    state.zoom.transform(g.plot, state.transform);
  }

  drawLaneStripes(ctx, g.stripes);
  drawLaneLabels(ctx, g.labels);
  const { back, front } = bandsOf(ctx);
  const glyphs = glyphsOf(ctx);
  state.ticks = tickMarksOf(ctx);
  state.dense = model.messages.length + state.ticks.length > denseThresholdOf(view);
  const heavy = state.dense && model.intervals.length + glyphs.length > (view.heavyThreshold ?? 500);
  // A heavy run keeps only verdict markers as SVG (few, and the ones a learner must reach by keyboard).
  state.heavy = heavy
    ? denseMarksOf(
        ctx,
        back,
        front,
        glyphs.filter((d) => d.kind !== 'verdict'),
      )
    : null;
  state.messages = state.dense ? messageIndexOf(model.messages, model.endMs) : null;
  state.version++;
  state.raster.reset();
  state.rows = null;
  drawBands(ctx, g.bandsBack, heavy ? [] : back);
  drawBands(ctx, g.bandsFront, heavy ? [] : front);
  if (heavy) g.stretch.selectAll('rect.tl-interval').remove();
  else drawStretchIntervals(ctx, g.stretch);
  drawDensity(ctx, g.stretch);
  if (state.dense) {
    drawTicks(
      ctx,
      g.stretch,
      state.ticks.filter((t) => t.kind === 'expiry'),
    );
    g.messages.selectAll('*').remove();
    // The canvas itself is made by the frame (frame.ts), sized to the rows on screen.
  } else {
    drawTicks(ctx, g.stretch, state.ticks);
    drawMessages(ctx, g.messages);
    removeCanvas(g.canvas);
  }
  drawCaptions(ctx, g.captions, heavy ? [] : captionsOf(ctx));
  drawKeyRowLabels(ctx, g.keyRows);
  drawGlyphs(ctx, g.glyphs, heavy ? glyphs.filter((d) => d.kind === 'verdict') : glyphs);
  drawScrollCues(ctx, g.scrollCues);
  drawPlayhead(ctx, g.veil, g.head);

  // Every layer stamps data-id with the event that makes a mark appear, so marks can be "not
  // yet happened"; marks get a focusable-but-not-tabbable tabindex (roving focus).
  state.root.selectAll('.tl-mark:not([tabindex])').attr('tabindex', -1).attr('role', 'button');
  // A first accessible name for every mark (rewritten for all when the run changed, since a kept
  // mark may now mean something else); focusing a mark refreshes it as of the playhead.
  state.root.selectAll<Element, unknown>(newRun ? '.tl-mark' : '.tl-mark:not([aria-label])').each(function () {
    const info = markInfo(ctx, this, -Infinity);
    if (info) this.setAttribute('aria-label', info.headline);
  });
  state.byId = [];
  state.svg.querySelectorAll('[data-id]').forEach((el) => state.byId.push([Number(el.getAttribute('data-id')), el]));
  state.byId.sort((a, b) => a[0] - b[0]);
  state.shownUpTo = Infinity;
  for (const [, el] of state.byId) el.classList.remove('tl-future');
  // The first run opens on its author's window, if it has one; asked to, a new run shown whole on
  // a phone starts zoomed in just enough for its key writes to keep their labels (momentZoom.ts).
  // A learner's own zoom is kept.
  const opening = view.opensOn && runChanged && !newRun ? windowTransform(state, view.opensOn) : null;
  if (opening) {
    state.transform = opening;
    state.zoom.transform(g.plot, opening);
  } else if (view.zoomToMoment && runChanged && state.transform.k === 1) {
    const k = momentZoomK(model, layout.plotWidthPx, ctx.x0, (tryK, moment) => labelledAt(state, tryK, moment));
    state.transform = zoomIdentity.scale(k);
    state.zoom.transform(g.plot, state.transform);
  }
  applyZoom(state);
}

/**
 * Whether, zoomed `k` times with `moment` in the middle of the plot, the label pass keeps the
 * labels of every key write. Draws a frame to find out (the caller sets the zoom it settles on).
 */
function labelledAt(state: TimelineState, k: number, moment: KeyMoment): boolean {
  const ctx = state.ctx!;
  const midPx = ctx.x0((moment.fromMs + moment.toMs) / 2) * k;
  state.transform = zoomIdentity.translate(Math.min(0, ctx.layout.plotWidthPx / 2 - midPx), 0).scale(k);
  applyZoom(state);
  return moment.writeIds.every((id) => {
    const el = state.groups.glyphs.select<SVGGElement>(`g.tl-write[data-id="${id}"]`).node();
    return el !== null && el.getAttribute('display') !== 'none' && !el.classList.contains('tl-unlabelled');
  });
}

/** Puts the label column at the left edge of what the host shows. */
export function placeLabels(state: TimelineState): void {
  const { labels, tooltip } = state.groups;
  labels.attr('transform', `translate(${state.labelOffsetPx},${state.ctx?.layout.axisHeightPx ?? 0})`);
  // Shifted, the column lies over the plot and must be drawn after it (the tooltip stays on top).
  if (state.labelOffsetPx > 0 && labels.node()!.nextSibling !== tooltip.node()) {
    labels.raise();
    tooltip.raise();
  }
}
