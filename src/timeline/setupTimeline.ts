import { select } from 'd3-selection';
import 'd3-transition';
import { zoom as d3zoom, zoomIdentity, type ZoomTransform } from 'd3-zoom';
import type { Selection } from 'd3-selection';
import { placeLabels } from './drawModel';
import { applyZoom, cancelFrame, checkRows, reducedMotion, scheduleFrame } from './frame';
import { attachInteraction } from './interaction/attachInteraction';
import { CanvasRaster } from './layers/canvasRaster';
import { ensureDefs } from './layers/defs';
import {
  timeWindowOf,
  windowTransform,
  type TimelineHandle,
  type TimelineState,
  type TimelineViewOptions,
} from './timelineState';

/**
 * Building a timeline's skeleton once per svg: the layer groups in paint order, the clip paths,
 * the zoom behaviour, the listeners, and the handle the host steers it with.
 */

const states = new WeakMap<SVGSVGElement, TimelineState>();
let nextPrefix = 0;

/** The timeline already drawn in `svg`, or a new, empty one (the caller draws a model into it). */
export function timelineFor(svg: SVGSVGElement, view: TimelineViewOptions): TimelineState {
  return states.get(svg) ?? init(svg, view);
}

/** Empties `svg`, builds the layers and wires zoom and interaction. */
function init(svg: SVGSVGElement, view: TimelineViewOptions): TimelineState {
  const root = select(svg);
  const prefix = view.idPrefix ?? `tl${nextPrefix++}`;
  root.selectAll('*').remove();
  root
    .attr('class', 'tl-root')
    .attr('tabindex', 0)
    .attr('role', 'group')
    .attr('aria-roledescription', 'timeline')
    .attr('aria-describedby', `${prefix}-help`);
  root.append('title');
  root
    .append('desc')
    .attr('id', `${prefix}-help`)
    .text(
      'Plus and minus zoom, left and right arrows pan, 0 fits the whole run. Tab moves into the marks; in the marks, arrows move between them and Enter selects one.',
    );
  ensureDefs(root, prefix);
  const defs = root.select<SVGDefsElement>('defs');
  const plotClip = defs.append('clipPath').attr('id', `${prefix}-plot`).append('rect').node()!;
  const pastClip = defs
    .append('clipPath')
    .attr('id', `${prefix}-past`)
    .append('rect')
    .attr('x', -20)
    .attr('y', -2)
    .node()!;

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
  const keyRows = clipped
    .append('g')
    .attr('class', 'tl-key-rows')
    .attr('aria-hidden', 'true')
    .attr('pointer-events', 'none');
  const scrollCues = plot.append('g').attr('class', 'tl-scroll-cues').attr('aria-hidden', 'true');
  const head = plot.append('g').attr('class', 'tl-playhead-group').attr('aria-hidden', 'true');
  plot
    .append('rect')
    .attr('class', 'tl-plot-frame')
    .attr('fill', 'none')
    .attr('stroke', 'none')
    .attr('pointer-events', 'none');
  const tooltip = root.append('g').attr('class', 'tl-tooltip').attr('visibility', 'hidden');

  const state: TimelineState = {
    svg,
    root,
    prefix,
    groups: {
      labels,
      axis,
      plot,
      stripes,
      veil,
      past,
      bandsBack,
      stretch,
      bandsFront,
      messages,
      captions,
      canvas,
      glyphs,
      keyRows,
      scrollCues,
      head,
      tooltip,
    },
    pastClip,
    plotClip,
    // d3-zoom's own touch test reads the global navigator; ask the svg's window instead.
    zoom: d3zoom<SVGGElement, unknown>().touchable(function () {
      return (this.ownerDocument.defaultView?.navigator?.maxTouchPoints ?? 0) > 0 || 'ontouchstart' in this;
    }),
    transform: zoomIdentity,
    ctx: null,
    model: null,
    view,
    ticks: [],
    dense: false,
    heavy: null,
    messages: null,
    raster: null as unknown as CanvasRaster,
    rows: null,
    passSvgTopPx: undefined,
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
    const shown = state.view.onTimeWindow && timeWindowOf(state);
    if (shown) state.view.onTimeWindow!(shown);
  });
  plot.call(state.zoom).on('dblclick.zoom', null);
  const detachInteraction = attachInteraction(state, {
    zoomBy: (f) => state.handle.zoomBy(f),
    panByPx: (dx) => state.handle.panByPx(dx),
    fit: () => state.handle.fitToRun(),
  });
  const detachScroll = watchScroll(state);
  state.detach = () => {
    detachInteraction();
    detachScroll();
  };
  state.handle = makeHandle(state);
  states.set(svg, state);
  return state;
}

/**
 * A big run's canvas covers only the rows on screen (frame.ts): any scroll, of the page or of a
 * box around the timeline, may bring others into view, so each scroll frame checks.
 */
function watchScroll(state: TimelineState): () => void {
  const win = state.svg.ownerDocument.defaultView;
  if (!win) return () => {};
  let frame: number | null = null;
  const onScroll = () => {
    if (frame !== null || !state.dense) return;
    frame = win.requestAnimationFrame(() => {
      frame = null;
      checkRows(state);
    });
  };
  const options = { capture: true, passive: true };
  win.addEventListener('scroll', onScroll, options);
  win.addEventListener('resize', onScroll, options);
  return () => {
    if (frame !== null) win.cancelAnimationFrame(frame);
    win.removeEventListener('scroll', onScroll, options);
    win.removeEventListener('resize', onScroll, options);
  };
}

function makeHandle(state: TimelineState): TimelineHandle {
  const plot = state.groups.plot as unknown as Selection<SVGGElement, unknown, null, undefined>;
  // A fit in flight (its 250 ms glide back to the whole run). A zoom pressed during it starts
  // from the fitted view, not from wherever the glide had got to: "Fit to run" then "Zoom in",
  // pressed quickly on a slow phone, gave 2.25× instead of 1.5×.
  let fitting = false;
  return {
    zoomBy: (factor) => {
      const width = state.ctx?.layout.plotWidthPx ?? 0;
      if (fitting) {
        fitting = false;
        state.zoom.transform(plot, zoomIdentity);
      }
      state.zoom.scaleBy(plot, factor, [width / 2, 0]);
    },
    panByPx: (dx) => state.zoom.translateBy(plot, dx / state.transform.k, 0),
    fitToRun: () => {
      if (reducedMotion(state)) return state.zoom.transform(plot, zoomIdentity);
      fitting = true;
      const glide = plot
        .transition()
        .duration(250)
        .on('end interrupt cancel', () => (fitting = false));
      state.zoom.transform(glide as unknown as typeof plot, zoomIdentity);
    },
    transform: () => ({ k: state.transform.k, x: state.transform.x }),
    timeWindow: () => timeWindowOf(state),
    showTimeWindow: (window) => {
      const transform = windowTransform(state, window);
      if (transform) state.zoom.transform(plot, transform);
    },
    dense: () => state.dense,
    redrawNow: () => {
      cancelFrame(state);
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
      cancelFrame(state);
      states.delete(state.svg);
    },
  };
}
