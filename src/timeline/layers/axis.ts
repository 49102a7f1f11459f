import { axisTop } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import type { Selection } from 'd3-selection';
import { formatTick } from '../scales';

/** Redraws the time axis for the current zoom (about a dozen ticks, so cheap per frame). */
export function drawAxis(g: Selection<SVGGElement, unknown, null, undefined>, x: ScaleLinear<number, number>, plotWidthPx: number): void {
  const ticks = Math.max(2, Math.floor(plotWidthPx / 90));
  g.call(axisTop<number>(x).ticks(ticks).tickSizeOuter(0).tickFormat((ms) => formatTick(ms)));
}

/**
 * Hides the tick labels the playhead's time tag would cover (the tag spans `tagWidthPx`
 * around `tagX`), so "12 s" never peeks out from behind "11.509 s".
 */
export function hideTicksUnderTag(g: Selection<SVGGElement, unknown, null, undefined>, x: ScaleLinear<number, number>, tagX: number, tagWidthPx: number): void {
  g.selectAll<SVGGElement, number>('g.tick').each(function (ms) {
    const covered = Math.abs(x(ms) - tagX) < tagWidthPx / 2 + 14;
    this.querySelector('text')?.setAttribute('visibility', covered ? 'hidden' : 'visible');
  });
}
