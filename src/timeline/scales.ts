import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { formatMs } from '../sim/time';
import type { Lane, TimelineModel } from './modelTypes';

/** Where everything sits, in pixels. The plot is the area right of the lane labels. */
export interface Layout {
  width: number;
  height: number;
  /** Width of the lane-label column. */
  labelWidthPx: number;
  /** Height of the time axis above the lanes. */
  axisHeightPx: number;
  laneHeightPx: number;
  plotWidthPx: number;
  plotHeightPx: number;
}

const LANE_HEIGHT_PX = 64;
/**
 * Two rows: the scroll cues' "‹ earlier" / "later ›" tabs on top, the tick labels and the
 * playhead's time tag under them. In one row, a zoomed phone plot (~180 px, two or three ticks)
 * had every tick label under a tab.
 */
const AXIS_HEIGHT_PX = 50;
const RIGHT_PAD_PX = 16;
const BOTTOM_PAD_PX = 8;

/** Sizes the drawing for `laneCount` lanes in a container `width` pixels wide. */
export function computeLayout(laneCount: number, width: number): Layout {
  const labelWidthPx = width < 720 ? 128 : 176;
  const plotWidthPx = Math.max(80, width - labelWidthPx - RIGHT_PAD_PX);
  const plotHeightPx = Math.max(1, laneCount) * LANE_HEIGHT_PX;
  return {
    width,
    height: AXIS_HEIGHT_PX + plotHeightPx + BOTTOM_PAD_PX,
    labelWidthPx,
    axisHeightPx: AXIS_HEIGHT_PX,
    laneHeightPx: LANE_HEIGHT_PX,
    plotWidthPx,
    plotHeightPx,
  };
}

/**
 * Room after the run's last moment for a mark's label centred on it ("token 1 ✕" is ~56 px): on a
 * phone 6% of the plot is ~10 px, and the rejected write at a run's end was cut in half.
 */
const END_AIR_PX = 32;

/** The un-zoomed time scale: the whole run across the plot, with air at the end for the last mark's label. */
export function baseTimeScale(model: TimelineModel, layout: Layout): ScaleLinear<number, number> {
  const air = Math.max(1.06, layout.plotWidthPx / Math.max(1, layout.plotWidthPx - END_AIR_PX));
  return scaleLinear()
    .domain([0, model.endMs * air])
    .range([0, layout.plotWidthPx]);
}

/** Vertical bands inside one lane, in plot pixels. Each role uses the bands it needs. */
export interface LaneBands {
  top: number;
  mid: number;
  bottom: number;
  /** Client lanes: the faint copy of the Redis lease. */
  projection: [number, number];
  /** Client lanes: the outlined "believes it holds" bar. Redis lanes: the solid lease bar. */
  main: [number, number];
  /** Small ticks (state changes, expiries) along the lane's foot. */
  ticks: [number, number];
}

/** The bands of `lane`. */
export function laneBands(layout: Layout, lane: Pick<Lane, 'index'>): LaneBands {
  const top = lane.index * layout.laneHeightPx;
  const h = layout.laneHeightPx;
  return {
    top,
    mid: top + h / 2,
    bottom: top + h,
    projection: [top + 9, top + 17],
    main: [top + 20, top + 44],
    ticks: [top + 50, top + 58],
  };
}

/** Tick labels that stay short: "0", "250 ms", "2 s", "17.5 s". */
export function formatTick(ms: number): string {
  return ms === 0 ? '0' : formatMs(Math.round(ms * 1000) / 1000);
}
