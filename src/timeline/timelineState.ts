import type { Selection } from 'd3-selection';
import { zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { DenseMarks } from './layers/denseCanvas';
import type { MessageIndex } from './layers/canvasLayer';
import type { CanvasRaster } from './layers/canvasRaster';
import type { RenderContext, XOf } from './layers/context';
import type { Rows } from './layers/paintJob';
import type { PointMark, TimelineModel } from './modelTypes';

/**
 * The timeline's shared vocabulary: what the host passes in, the handle it gets back, and the
 * state one drawn timeline keeps between calls. Every part of the renderer (drawing, zoom and
 * cursor frames, keyboard and pointer interaction) reads these types from here, so none of them
 * needs to import the entry point that ties them together.
 */

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
  /**
   * Start a new run zoomed in on its key writes when the plot is too narrow for their labels
   * (momentZoom.ts); the player asks for it, a picture for the gallery does not (default false).
   */
  zoomToMoment?: boolean;
  /**
   * The window the first run drawn in this svg opens on (a scenario's `view`: its author knows
   * where the action is); it takes the place of zoomToMoment. Later runs keep the learner's zoom.
   */
  opensOn?: TimeWindow;
  /** Keep the playhead in view when it moves (default true). */
  followCursor?: boolean;
  /** Above this many arrows + ticks, those layers are painted on a canvas (default: denseThresholdOf). */
  denseThreshold?: number;
  /** Above this many bars + point marks (in a dense run), they go on the canvas too (default 500). */
  heavyThreshold?: number;
  /** Prefix of the svg's pattern and clip ids (default: one unique per timeline on the page). */
  idPrefix?: string;
  /**
   * Called whenever the visible time window changes (a zoom, a pan, a fit, a follow of the
   * playhead, or showTimeWindow), so a host can keep other timelines on the same window.
   */
  onTimeWindow?: (window: TimeWindow) => void;
}

/** Above how many arrows + ticks a view paints those layers on a canvas: its own say, else 800. */
export function denseThresholdOf(view: TimelineViewOptions): number {
  return view.denseThreshold ?? 800;
}

/** The span of virtual time the plot shows, edge to edge. */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/** Imperative controls for the host's toolbar and for benchmarks. */
export interface TimelineHandle {
  zoomBy(factor: number): void;
  panByPx(dxPx: number): void;
  fitToRun(): void;
  /** The current zoom as scale k and x offset in plot pixels. */
  transform(): { k: number; x: number };
  /** The time the plot shows now, edge to edge (null before a run is drawn). */
  timeWindow(): TimeWindow | null;
  /** Zooms and pans, without animation, so that the plot shows exactly `window`. */
  showTimeWindow(window: TimeWindow): void;
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
  groups: Record<
    | 'labels'
    | 'axis'
    | 'plot'
    | 'stripes'
    | 'veil'
    | 'past'
    | 'bandsBack'
    | 'stretch'
    | 'bandsFront'
    | 'messages'
    | 'captions'
    | 'canvas'
    | 'glyphs'
    | 'keyRows'
    | 'scrollCues'
    | 'head'
    | 'tooltip',
    G
  >;
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
  /** The plot rows the canvas covers now (null until a dense run is painted). */
  rows: Rows | null;
  /**
   * Inside one renderTimeline call on a dense run: the svg's top on screen, read before anything
   * was written (the call moves nothing on the page). Undefined otherwise: a zoom or a scroll
   * reads afresh.
   */
  passSvgTopPx: number | undefined;
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

/** The time window the plot shows under the current zoom. */
export function timeWindowOf(state: TimelineState): TimeWindow | null {
  const ctx = state.ctx;
  if (!ctx) return null;
  const { k, x } = state.transform;
  return { fromMs: ctx.x0.invert(-x / k), toMs: ctx.x0.invert((ctx.layout.plotWidthPx - x) / k) };
}

/** The zoom that shows exactly `window` across the plot, or null before a first draw or for an empty window. */
export function windowTransform(state: TimelineState, { fromMs, toMs }: TimeWindow): ZoomTransform | null {
  const ctx = state.ctx;
  const spanPx = ctx ? ctx.x0(toMs) - ctx.x0(fromMs) : 0;
  if (!ctx || !(spanPx > 0)) return null;
  const k = ctx.layout.plotWidthPx / spanPx;
  return zoomIdentity.translate(-ctx.x0(fromMs) * k, 0).scale(k);
}

/** The zoomed time-to-x function. */
export function zoomedX(state: TimelineState): XOf {
  const { x0 } = state.ctx!;
  const { k, x } = state.transform;
  return (ms) => x0(ms) * k + x;
}
