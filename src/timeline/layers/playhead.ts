import type { Selection } from 'd3-selection';
import { formatMs } from '../../sim/time';
import { ink, paper } from '../palette';
import type { RenderContext } from './context';
import { CUE_TAB_Y_PX } from './scrollCues';

type G = Selection<SVGGElement, unknown, null, undefined>;

/**
 * The playhead, the "not yet happened" veil right of it, and the clip that hides the future
 * part of every interval and arrow. All three move together and nothing else is touched, so
 * stepping through a run costs a handful of attribute writes.
 */
/** From the tag's own row (its rect's top is at -22) up to the scroll cues' (scrollCues.ts). */
const CUE_ROW_SHIFT_PX = CUE_TAB_Y_PX + 22;

export function drawPlayhead(ctx: RenderContext, veil: G, g: G): void {
  if (!g.select('line.tl-playhead').empty()) return;
  veil
    .append('rect')
    .attr('class', 'tl-veil')
    .attr('y', 0)
    .attr('fill', `url(#${ctx.prefix}-future)`)
    .attr('pointer-events', 'none');
  g.append('line')
    .attr('class', 'tl-playhead')
    .attr('stroke', ink)
    .attr('stroke-width', 2)
    .attr('pointer-events', 'none');
  const tag = g.append('g').attr('class', 'tl-playhead-tag').attr('pointer-events', 'none');
  tag.append('rect').attr('height', 18).attr('y', -22).attr('rx', 3).attr('fill', ink);
  tag
    .append('text')
    .attr('y', -9)
    .attr('text-anchor', 'middle')
    .attr('fill', paper)
    .attr('font-size', 11)
    .attr('font-weight', 700);
}

/**
 * Moves the playhead to `x` (plot pixels) labelled with `cursorMs`; returns where its time tag
 * sits and on which side, if any, it is out of view. Scrolled out of view, the tag ("← 9 s")
 * takes the place of the scroll cue's tab on that side, in the row above the tick labels: at
 * the ticks' edge it hid one of a phone's two or three, and beside the tab it had no room.
 */
export function positionPlayhead(
  ctx: RenderContext,
  veil: G,
  g: G,
  pastClip: Element | null,
  x: number,
  cursorMs: number,
): { tagX: number; tagWidthPx: number; away: 'left' | 'right' | null } {
  const { plotWidthPx, plotHeightPx } = ctx.layout;
  const clamped = Math.max(-2, Math.min(plotWidthPx + 2, x));
  veil
    .select('rect.tl-veil')
    .attr('x', Math.max(0, clamped))
    .attr('width', Math.max(0, plotWidthPx - Math.max(0, clamped)))
    .attr('height', plotHeightPx);
  g.select('line.tl-playhead')
    .attr('x1', clamped)
    .attr('x2', clamped)
    .attr('y1', -4)
    .attr('y2', plotHeightPx)
    .attr('visibility', x < -1 || x > plotWidthPx + 1 ? 'hidden' : 'visible');
  // When the playhead is scrolled out of view its tag waits at the edge, pointing at it.
  const time = formatMs(Math.round(cursorMs * 1000) / 1000);
  const label = x > plotWidthPx ? `${time} →` : x < 0 ? `← ${time}` : time;
  const widthPx = label.length * 6.6 + 10;
  const away = x < 0 ? 'left' : x > plotWidthPx ? 'right' : null;
  const tagX = Math.max(2 + widthPx / 2, Math.min(plotWidthPx - 2 - widthPx / 2, clamped));
  const tag = g.select('g.tl-playhead-tag').attr('transform', `translate(${tagX},${away ? CUE_ROW_SHIFT_PX : 0})`);
  tag
    .select('rect')
    .attr('x', -widthPx / 2)
    .attr('width', widthPx);
  tag.select('text').text(label);
  // The clip reveals the past; a pixel of slack keeps an arrow ending exactly now visible (the rect starts at x = -20).
  pastClip?.setAttribute('width', String(Math.max(0, clamped + 21)));
  return { tagX, tagWidthPx: widthPx, away };
}
