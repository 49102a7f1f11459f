import type { Selection } from 'd3-selection';
import { ink, paper } from '../palette';
import type { RenderContext, XOf } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** Top of a cue's tab: the axis row's upper half, above the tick labels and the playhead's tag. */
export const CUE_TAB_Y_PX = -46;

/** How wide the fade at a plot edge is. */
const FADE_PX = 28;

interface Cue {
  side: 'left' | 'right';
  /** What the cue says to a sighted reader (the keys and the event list say it to everyone else). */
  text: string;
}

const CUES: Cue[] = [
  { side: 'left', text: '‹ earlier' },
  { side: 'right', text: 'later ›' },
];

/**
 * Cues at the plot's edges that the run goes on beyond them: when zoomed in (or panned), the
 * side with more of the run fades out under a small "later ›" / "‹ earlier" tab, so a learner on
 * a phone, who sees a narrow slice, knows the diagram scrolls. Hidden when the whole run fits.
 * The tabs sit above the tick labels, never on them.
 */
export function drawScrollCues(ctx: RenderContext, g: G): void {
  const { plotWidthPx, plotHeightPx } = ctx.layout;
  const cues = g
    .selectAll<SVGGElement, Cue>('g.tl-scroll-cue')
    .data(CUES, (c) => c.side)
    .join((enter) => {
      const cue = enter
        .append('g')
        .attr('class', (c) => `tl-scroll-cue tl-scroll-cue-${c.side}`)
        .attr('aria-hidden', 'true')
        .attr('pointer-events', 'none')
        .attr('display', 'none');
      cue.append('rect').attr('class', 'tl-scroll-fade');
      cue
        .append('rect')
        .attr('class', 'tl-scroll-tab')
        .attr('rx', 9)
        .attr('height', 18)
        .attr('fill', ink)
        .attr('fill-opacity', 0.85);
      cue
        .append('text')
        .attr('class', 'tl-scroll-text')
        .attr('fill', paper)
        .attr('font-size', 11)
        .attr('font-weight', 700);
      return cue;
    });
  cues
    .select('rect.tl-scroll-fade')
    .attr('x', (c) => (c.side === 'left' ? 0 : plotWidthPx - FADE_PX))
    .attr('y', 0)
    .attr('width', FADE_PX)
    .attr('height', plotHeightPx)
    .attr('fill', (c) => `url(#${ctx.prefix}-fade-${c.side})`);
  const tabWidth = (c: Cue) => cueTabWidthPx(c.side);
  cues
    .select('rect.tl-scroll-tab')
    .attr('x', (c) => (c.side === 'left' ? 2 : plotWidthPx - tabWidth(c) - 2))
    .attr('y', CUE_TAB_Y_PX)
    .attr('width', tabWidth);
  cues
    .select('text.tl-scroll-text')
    .attr('x', (c) => (c.side === 'left' ? 9 : plotWidthPx - tabWidth(c) + 5))
    .attr('y', CUE_TAB_Y_PX + 13)
    .text((c) => c.text);
}

/** The width of a cue's tab. */
function cueTabWidthPx(side: Cue['side']): number {
  return CUES.find((c) => c.side === side)!.text.length * 6.6 + 14;
}

/** Which cues are shown under zoomed scale `x`: a side where part of the run lies out of view. */
function cuesShown(ctx: RenderContext, x: XOf): { left: boolean; right: boolean } {
  return { left: x(0) < -1, right: x(ctx.model.endMs) > ctx.layout.plotWidthPx + 1 };
}

/** Shows a cue on each side where part of the run lies out of view. */
export function positionScrollCues(ctx: RenderContext, g: G, x: XOf): void {
  const hidden = cuesShown(ctx, x);
  g.selectAll<SVGGElement, Cue>('g.tl-scroll-cue').each(function (c) {
    const shown = hidden[c.side];
    if ((this.getAttribute('display') !== 'none') !== shown) {
      if (shown) this.removeAttribute('display');
      else this.setAttribute('display', 'none');
    }
  });
}

/** Hides the tab (not the fade) of the cue on `side`, where the playhead's tag waits instead; null shows both. */
export function yieldCueTab(g: G, side: Cue['side'] | null): void {
  g.selectAll<SVGGElement, Cue>('g.tl-scroll-cue').each(function (c) {
    const visibility = c.side === side ? 'hidden' : 'visible';
    for (const el of this.querySelectorAll('.tl-scroll-tab, .tl-scroll-text'))
      if (el.getAttribute('visibility') !== visibility) el.setAttribute('visibility', visibility);
  });
}
