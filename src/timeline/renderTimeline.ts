import { select, type Selection } from 'd3-selection';
import 'd3-transition';
import { zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { attachInteraction } from './interaction';
import { drawAxis, hideTicksUnderTag } from './layers/axis';
import { canvasJobs, ensureCanvas, messageIndexOf, removeCanvas, type MessageIndex } from './layers/canvasLayer';
import { CanvasRaster } from './layers/canvasRaster';
import { makeContext, type RenderContext, type XOf } from './layers/context';
import { ensureDefs } from './layers/defs';
import { denseMarksOf, type DenseMarks } from './layers/denseCanvas';
import { bandsOf, drawBands, drawStretchIntervals, positionBands, positionStretch } from './layers/intervals';
import { captionsOf, drawCaptions, drawKeyRowLabels, positionCaptions } from './layers/labels';
import { drawLaneLabels, drawLaneStripes, updateLaneStates } from './layers/lanes';
import { drawGlyphs, glyphsOf, positionGlyphs } from './layers/marks';
import { drawMessages, positionMessages } from './layers/messages';
import { drawPlayhead, positionPlayhead } from './layers/playhead';
import { drawTicks, tickMarksOf } from './layers/ticks';
import { markInfo } from './markInfo';
import { laneStateAt } from './model';
import type { PointMark, TimelineModel } from './modelTypes';
import { baseTimeScale, computeLayout } from './scales';

/** What the host decides: where the playhead is, what is selected, how wide to draw. */
export interface TimelineViewOptions {
  /** Playhead time (virtual ms). */
  cursorMs: number;
  /** Events with a larger id have not happened yet and are hidden; default: all happened. */
  cursorId?: number;
  selectedId?: number;
  /** Container width in CSS pixels; the height follows from the number of lanes. */
  width: number;
  /** Accessible name of the svg. */
  title?: string;
  /** Called with an event id when a mark is clicked or activated with Enter/Space. */
  onSelect?: (eventId: number) => void;
  /** Force motion off (defaults to the user's prefers-reduced-motion setting). */
  reducedMotion?: boolean;
  /** Keep the playhead in view when it moves (default true). */
  followCursor?: boolean;
  /** Above this many arrows + ticks, those layers are painted on a canvas (default 800). */
  denseThreshold?: number;
  /** Above this many bars + point marks (in a dense run), they go on the canvas too (default 500). */
  heavyThreshold?: number;
}

/** Imperative controls for the host's toolbar and for benchmarks. */
export interface TimelineHandle {
  zoomBy(factor: number): void;
  panByPx(dxPx: number): void;
  fitToRun(): void;
  /** The current zoom as scale k and x offset in plot pixels. */
  transform(): { k: number; x: number };
  /** Whether dense layers are on the canvas. */
  dense(): boolean;
  /** Applies the current zoom now instead of on the next animation frame (for benchmarks). */
  redrawNow(): void;
  /** Paints a big run's canvas sharp at once (before an export; zooming leaves it soft for a few frames). */
  sharpen(): void;
  /**
   * Shifts the lane labels right by `px`: when the host scrolls the diagram sideways (a phone),
   * it passes its scroll offset so the labels stay in view over the plot, like a sticky column.
   */
  setLabelOffset(px: number): void;
  destroy(): void;
}

type G = Selection<SVGGElement, unknown, null, undefined>;

/** Everything a timeline keeps between calls, stored per svg element. */
export interface TimelineState {
  svg: SVGSVGElement;
  root: Selection<SVGSVGElement, unknown, null, undefined>;
  prefix: string;
  groups: Record<'labels' | 'axis' | 'plot' | 'stripes' | 'veil' | 'past' | 'bandsBack' | 'stretch' | 'bandsFront' | 'messages' | 'captions' | 'canvas' | 'glyphs' | 'keyRows' | 'head' | 'tooltip', G>;
  pastClip: SVGRectElement;
  plotClip: SVGRectElement;
  zoom: ZoomBehavior<SVGGElement, unknown>;
  transform: ZoomTransform;
  ctx: RenderContext | null;
  model: TimelineModel | null;
  view: TimelineViewOptions;
  ticks: PointMark[];
  dense: boolean;
  /** Bars, bands and glyphs on the canvas too (null while they are SVG). */
  heavy: DenseMarks | null;
  /** Arrows sorted for culling (dense runs only). */
  messages: MessageIndex | null;
  /** The dense layers' bitmap, repainted in slices while zooming. */
  raster: CanvasRaster;
  /** Bumped on every new model or size, so no bitmap of an old one is shown. */
  version: number;
  /** The next canvas paint must be exact, not a scaled bitmap. */
  sharpNext: boolean;
  /** How far the host has scrolled the diagram sideways (the labels follow). */
  labelOffsetPx: number;
  /** [id, element] for everything that can be "not yet happened", sorted by id. */
  byId: [number, Element][];
  shownUpTo: number;
  selected: Element[];
  frame: number | null;
  detach: () => void;
  handle: TimelineHandle;
}

const states = new WeakMap<SVGSVGElement, TimelineState>();
let nextPrefix = 0;

/**
 * Draws `model` into `svg` and keeps it in sync on later calls: a new model re-joins marks by
 * key; a new cursor or selection only moves the playhead and flips a few marks. Imports no React.
 * @example const handle = renderTimeline(svgEl, buildTimelineModel(events, verdicts), { cursorMs: 0, width: 900 });
 */
export function renderTimeline(svg: SVGSVGElement, model: TimelineModel, view: TimelineViewOptions): TimelineHandle {
  const state = states.get(svg) ?? init(svg, view);
  const prevView = state.view;
  state.view = view;
  if (state.model !== model || state.ctx?.layout.width !== view.width || (view.denseThreshold ?? 800) !== (prevView.denseThreshold ?? 800)) {
    drawModel(state, model, view);
  }
  // Only write what changed: a rewritten text node invalidates style and layout for the whole svg.
  const title = view.title ?? 'Timeline of the run';
  if (state.root.attr('aria-label') !== title) {
    state.root.attr('aria-label', title);
    state.root.select('title').text(title);
  }
  const animate = !reducedMotion(view);
  if (state.root.classed('tl-animate') !== animate) state.root.classed('tl-animate', animate);
  applyCursor(state);
  applySelection(state);
  return state.handle;
}

function init(svg: SVGSVGElement, view: TimelineViewOptions): TimelineState {
  const root = select(svg);
  const prefix = `tl${nextPrefix++}`;
  root.selectAll('*').remove();
  root.attr('class', 'tl-root').attr('tabindex', 0).attr('role', 'group').attr('aria-roledescription', 'timeline').attr('aria-describedby', `${prefix}-help`);
  root.append('title');
  root.append('desc').attr('id', `${prefix}-help`).text('Plus and minus zoom, left and right arrows pan, 0 fits the whole run. Tab moves into the marks; in the marks, arrows move between them and Enter selects one.');
  ensureDefs(root, prefix);
  const defs = root.select<SVGDefsElement>('defs');
  const plotClip = defs.append('clipPath').attr('id', `${prefix}-plot`).append('rect').node()!;
  const pastClip = defs.append('clipPath').attr('id', `${prefix}-past`).append('rect').attr('x', -20).attr('y', -2).node()!;

  const labels = root.append('g').attr('class', 'tl-labels');
  const axis = root.append('g').attr('class', 'tl-axis').attr('aria-hidden', 'true');
  const plot = root.append('g').attr('class', 'tl-plot');
  plot.append('rect').attr('class', 'tl-plot-bg').attr('fill', 'transparent');
  const clipped = plot.append('g').attr('clip-path', `url(#${prefix}-plot)`);
  const stripes = clipped.append('g').attr('class', 'tl-stripes').attr('aria-hidden', 'true');
  const veil = clipped.append('g').attr('class', 'tl-veil-layer').attr('aria-hidden', 'true');
  const past = clipped.append('g').attr('class', 'tl-past').attr('clip-path', `url(#${prefix}-past)`);
  const bandsBack = past.append('g').attr('class', 'tl-bands-back');
  const stretch = past.append('g').attr('class', 'tl-stretch');
  const bandsFront = past.append('g').attr('class', 'tl-bands-front');
  const canvas = past.append('g').attr('class', 'tl-canvas-layer').attr('aria-hidden', 'true');
  const messages = past.append('g').attr('class', 'tl-messages').attr('aria-hidden', 'true');
  const captions = past.append('g').attr('class', 'tl-captions').attr('aria-hidden', 'true');
  const glyphs = clipped.append('g').attr('class', 'tl-glyphs');
  const keyRows = clipped.append('g').attr('class', 'tl-key-rows').attr('aria-hidden', 'true').attr('pointer-events', 'none');
  const head = plot.append('g').attr('class', 'tl-playhead-group').attr('aria-hidden', 'true');
  plot.append('rect').attr('class', 'tl-plot-frame').attr('fill', 'none').attr('stroke', 'none').attr('pointer-events', 'none');
  const tooltip = root.append('g').attr('class', 'tl-tooltip').attr('visibility', 'hidden');

  const state: TimelineState = {
    svg,
    root,
    prefix,
    groups: { labels, axis, plot, stripes, veil, past, bandsBack, stretch, bandsFront, messages, captions, canvas, glyphs, keyRows, head, tooltip },
    pastClip,
    plotClip,
    zoom: d3zoom<SVGGElement, unknown>(),
    transform: zoomIdentity,
    ctx: null,
    model: null,
    view,
    ticks: [],
    dense: false,
    heavy: null,
    messages: null,
    raster: null as unknown as CanvasRaster,
    version: 0,
    sharpNext: false,
    labelOffsetPx: 0,
    byId: [],
    shownUpTo: Infinity,
    selected: [],
    frame: null,
    detach: () => {},
    handle: null as unknown as TimelineHandle,
  };
  state.raster = new CanvasRaster(() => scheduleFrame(state));
  state.zoom.on('zoom', (event: { transform: ZoomTransform }) => {
    state.transform = event.transform;
    scheduleFrame(state);
  });
  plot.call(state.zoom).on('dblclick.zoom', null);
  state.detach = attachInteraction(state, { zoomBy: (f) => state.handle.zoomBy(f), panByPx: (dx) => state.handle.panByPx(dx), fit: () => state.handle.fitToRun() });
  state.handle = makeHandle(state);
  states.set(svg, state);
  return state;
}

function reducedMotion(view: TimelineViewOptions): boolean {
  if (view.reducedMotion !== undefined) return view.reducedMotion;
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function makeHandle(state: TimelineState): TimelineHandle {
  const plot = state.groups.plot as unknown as Selection<SVGGElement, unknown, null, undefined>;
  const animated = () => (reducedMotion(state.view) ? plot : (plot.transition().duration(250) as unknown as typeof plot));
  return {
    zoomBy: (factor) => {
      const width = state.ctx?.layout.plotWidthPx ?? 0;
      state.zoom.scaleBy(plot, factor, [width / 2, 0]);
    },
    panByPx: (dx) => state.zoom.translateBy(plot, dx / state.transform.k, 0),
    fitToRun: () => state.zoom.transform(animated(), zoomIdentity),
    transform: () => ({ k: state.transform.k, x: state.transform.x }),
    dense: () => state.dense,
    redrawNow: () => {
      if (state.frame !== null) cancelAnimationFrame(state.frame);
      state.frame = null;
      applyZoom(state);
    },
    setLabelOffset: (px) => {
      state.labelOffsetPx = px;
      placeLabels(state);
    },
    sharpen: () => {
      state.sharpNext = true;
      applyZoom(state);
    },
    destroy: () => {
      state.detach();
      plot.on('.zoom', null);
      if (state.frame !== null) cancelAnimationFrame(state.frame);
      states.delete(state.svg);
    },
  };
}

/** Joins every layer against a new model (or new width). */
function drawModel(state: TimelineState, model: TimelineModel, view: TimelineViewOptions): void {
  const newRun = state.model !== null && state.model !== model;
  const layout = computeLayout(model.lanes.length, view.width);
  const oldWidth = state.ctx?.layout.plotWidthPx;
  const ctx = makeContext(model, layout, baseTimeScale(model, layout), state.prefix);
  state.ctx = ctx;
  state.model = model;
  const { groups: g } = state;
  state.root.attr('width', layout.width).attr('height', layout.height).attr('viewBox', `0 0 ${layout.width} ${layout.height}`);
  placeLabels(state);
  g.axis.attr('transform', `translate(${layout.labelWidthPx},${layout.axisHeightPx})`);
  g.plot.attr('transform', `translate(${layout.labelWidthPx},${layout.axisHeightPx})`);
  g.plot.select('rect.tl-plot-bg').attr('width', layout.plotWidthPx).attr('height', layout.plotHeightPx);
  g.plot.select('rect.tl-plot-frame').attr('width', layout.plotWidthPx).attr('height', layout.plotHeightPx);
  select(state.plotClip).attr('x', 0).attr('y', -2).attr('width', layout.plotWidthPx).attr('height', layout.plotHeightPx + 4);
  select(state.pastClip).attr('height', layout.plotHeightPx + 4);

  const extent: [[number, number], [number, number]] = [[0, 0], [layout.plotWidthPx, layout.plotHeightPx]];
  state.zoom.extent(extent).translateExtent(extent).scaleExtent([1, Math.max(2, model.endMs / 2)]);
  if (oldWidth && oldWidth !== layout.plotWidthPx) {
    // Keep the same stretch of time in view when the container resizes.
    state.transform = zoomIdentity.translate((state.transform.x * layout.plotWidthPx) / oldWidth, 0).scale(state.transform.k);
    state.zoom.transform(g.plot, state.transform);
  }

  drawLaneStripes(ctx, g.stripes);
  drawLaneLabels(ctx, g.labels);
  const { back, front } = bandsOf(ctx);
  const glyphs = glyphsOf(ctx);
  state.ticks = tickMarksOf(ctx);
  state.dense = model.messages.length + state.ticks.length > (view.denseThreshold ?? 800);
  const heavy = state.dense && model.intervals.length + glyphs.length > (view.heavyThreshold ?? 500);
  // A heavy run keeps only verdict markers as SVG (few, and the ones a learner must reach by keyboard).
  state.heavy = heavy ? denseMarksOf(ctx, back, front, glyphs.filter((d) => d.kind !== 'verdict')) : null;
  state.messages = state.dense ? messageIndexOf(model.messages, model.endMs) : null;
  state.version++;
  state.raster.reset();
  drawBands(ctx, g.bandsBack, heavy ? [] : back);
  drawBands(ctx, g.bandsFront, heavy ? [] : front);
  if (heavy) g.stretch.selectAll('rect.tl-interval').remove();
  else drawStretchIntervals(ctx, g.stretch);
  if (state.dense) {
    drawTicks(ctx, g.stretch, state.ticks.filter((t) => t.kind === 'expiry'));
    g.messages.selectAll('*').remove();
    ensureCanvas(ctx, g.canvas);
  } else {
    drawTicks(ctx, g.stretch, state.ticks);
    drawMessages(ctx, g.messages);
    removeCanvas(g.canvas);
  }
  drawCaptions(ctx, g.captions, heavy ? [] : captionsOf(ctx));
  drawKeyRowLabels(ctx, g.keyRows);
  drawGlyphs(ctx, g.glyphs, heavy ? glyphs.filter((d) => d.kind === 'verdict') : glyphs);
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
  applyZoom(state);
}

/** Puts the label column at the left edge of what the host shows. */
function placeLabels(state: TimelineState): void {
  const { labels, tooltip } = state.groups;
  labels.attr('transform', `translate(${state.labelOffsetPx},${state.ctx?.layout.axisHeightPx ?? 0})`);
  // Shifted, the column lies over the plot and must be drawn after it (the tooltip stays on top).
  if (state.labelOffsetPx > 0 && labels.node()!.nextSibling !== tooltip.node()) {
    labels.raise();
    tooltip.raise();
  }
}

function scheduleFrame(state: TimelineState): void {
  if (state.frame !== null) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = null;
    applyZoom(state);
  });
}

/** The zoomed time-to-x function. */
export function zoomedX(state: TimelineState): XOf {
  const { x0 } = state.ctx!;
  const { k, x } = state.transform;
  return (ms) => x0(ms) * k + x;
}

/** One zoom frame: one transform for the bars, per-element moves for the few shaped marks. */
export function applyZoom(state: TimelineState): void {
  const ctx = state.ctx;
  if (!ctx) return;
  const x = zoomedX(state);
  const { groups: g } = state;
  positionStretch(g.stretch, state.transform.x, state.transform.k);
  positionBands(g.bandsBack, x);
  positionBands(g.bandsFront, x);
  if (!state.dense) positionMessages(ctx, g.messages, x);
  positionCaptions(ctx, g.captions, x);
  positionGlyphs(ctx, g.glyphs, x);
  drawAxis(g.axis, state.transform.rescaleX(ctx.x0), ctx.layout.plotWidthPx);
  placePlayhead(state);
}

function placePlayhead(state: TimelineState): void {
  const ctx = state.ctx!;
  const cursorX = zoomedX(state)(state.view.cursorMs);
  const tag = positionPlayhead(ctx, state.groups.veil, state.groups.head, state.pastClip, cursorX, state.view.cursorMs);
  hideTicksUnderTag(state.groups.axis, state.transform.rescaleX(ctx.x0), tag.tagX, tag.tagWidthPx);
  if (state.dense) {
    const canvas = state.groups.canvas.select<HTMLCanvasElement>('canvas').node();
    if (canvas) {
      const { plotWidthPx, plotHeightPx } = ctx.layout;
      const cursorId = state.view.cursorId ?? Infinity;
      const view = { k: state.transform.k, tx: state.transform.x };
      const jobs = (v: typeof view, fromPx: number, toPx: number) => canvasJobs(ctx, { x: (ms) => ctx.x0(ms) * v.k + v.tx, fromPx, toPx, cursorId }, state.ticks, state.messages!, state.heavy);
      state.raster.show(canvas, plotWidthPx, plotHeightPx, view, `${state.version}|${cursorId}`, cursorX, jobs, state.sharpNext);
      state.sharpNext = false;
    }
  }
}

/** Moves the playhead, hides what has not happened yet, updates lane states. */
function applyCursor(state: TimelineState): void {
  const ctx = state.ctx;
  if (!ctx) return;
  const upTo = state.view.cursorId ?? Infinity;
  toggleFuture(state, upTo);
  updateLaneStates(state.groups.labels, laneStateAt(ctx.model, state.view.cursorMs, upTo), ctx.layout.labelWidthPx);
  if (state.view.followCursor !== false) {
    const px = zoomedX(state)(state.view.cursorMs);
    const w = ctx.layout.plotWidthPx;
    if (px < 0 || px > w) state.zoom.translateBy(state.groups.plot, (w * (px > w ? 0.8 : 0.2) - px) / state.transform.k, 0);
  }
  placePlayhead(state);
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

function applySelection(state: TimelineState): void {
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
