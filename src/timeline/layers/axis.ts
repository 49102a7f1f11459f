import { axisTop } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import type { Selection } from 'd3-selection';
import { formatTick } from '../scales';

/** Redraws the time axis for the current zoom (about a dozen ticks, so cheap per frame). */
export function drawAxis(g: Selection<SVGGElement, unknown, null, undefined>, x: ScaleLinear<number, number>, plotWidthPx: number): void {
  const ticks = Math.max(2, Math.floor(plotWidthPx / 90));
  g.call(axisTop<number>(x).ticks(ticks).tickSizeOuter(0).tickFormat((ms) => formatTick(ms)));
}
