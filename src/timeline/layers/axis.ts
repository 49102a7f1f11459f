import { axisTop } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import type { Selection } from 'd3-selection';
import { formatTick } from '../scales';

/**
 * Redraws the time axis for the current zoom (about a dozen ticks, so cheap per frame). A phone's
 * plot (~180 px) asks for three: asked for two, d3 could round to a step that left one label in view.
 */
export function drawAxis(
  g: Selection<SVGGElement, unknown, null, undefined>,
  x: ScaleLinear<number, number>,
  plotWidthPx: number,
): void {
  const ticks = Math.max(3, Math.floor(plotWidthPx / 90));
  g.call(
    axisTop<number>(x)
      .ticks(ticks)
      .tickSizeOuter(0)
      .tickFormat((ms) => formatTick(ms)),
  );
}

/**
 * Hides the tick labels the playhead's time tag would cover (the tag spans `tagWidthPx`
 * around `tagX`), so "12 s" never peeks out from behind "11.509 s". A tag waiting in the scroll
 * cues' row above (null) covers none.
 */
export function hideTicksUnderTag(
  g: Selection<SVGGElement, unknown, null, undefined>,
  x: ScaleLinear<number, number>,
  tag: { tagX: number; tagWidthPx: number } | null,
): void {
  g.selectAll<SVGGElement, number>('g.tick').each(function (ms) {
    const covered = tag !== null && Math.abs(x(ms) - tag.tagX) < tag.tagWidthPx / 2 + 14;
    this.querySelector('text')?.setAttribute('visibility', covered ? 'hidden' : 'visible');
  });
}
