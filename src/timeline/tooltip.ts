import type { Selection } from 'd3-selection';
import type { MarkInfo } from './markInfo';
import { ink, paper } from './palette';

type G = Selection<SVGGElement, unknown, null, undefined>;

const LINE_PX = 15;
const CHAR_PX = 7.1;
const MAX_CHARS = 58;

/**
 * A tooltip drawn inside the svg (so it needs no HTML overlay and works the same on focus and
 * hover). It repeats what the focused mark's accessible name says, so it is hidden from
 * assistive technology.
 */
export function showTooltip(g: G, info: MarkInfo, anchorX: number, anchorY: number, boundsW: number, boundsH: number): void {
  const lines = [...wrap(info.headline), ...info.rows.slice(0, 9).map(([k, v]) => `${k}: ${v.length > MAX_CHARS - k.length ? `${v.slice(0, MAX_CHARS - k.length - 1)}…` : v}`)];
  const widthPx = Math.min(MAX_CHARS, Math.max(...lines.map((l) => l.length))) * CHAR_PX + 16;
  const heightPx = lines.length * LINE_PX + 10;
  const x = Math.max(4, Math.min(boundsW - widthPx - 4, anchorX + 14));
  const y = anchorY + 14 + heightPx > boundsH ? Math.max(4, anchorY - heightPx - 10) : anchorY + 14;
  g.attr('aria-hidden', 'true').attr('pointer-events', 'none').attr('visibility', 'visible').attr('transform', `translate(${x},${y})`);
  g.selectAll('rect').data([0]).join('rect').attr('width', widthPx).attr('height', heightPx).attr('rx', 4).attr('fill', ink).attr('fill-opacity', 0.94);
  const headlineCount = lines.length - Math.min(9, info.rows.length);
  g.selectAll<SVGTextElement, string>('text')
    .data(lines)
    .join('text')
    .attr('x', 8)
    .attr('y', (_, i) => 17 + i * LINE_PX)
    .attr('fill', paper)
    .attr('font-size', 12)
    .attr('font-weight', (_, i) => (i < headlineCount ? 700 : 400))
    .text((l) => l);
}

/** Hides the tooltip. */
export function hideTooltip(g: G): void {
  g.attr('visibility', 'hidden');
}

/** Breaks a sentence into lines of at most MAX_CHARS characters, at spaces. */
function wrap(text: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > MAX_CHARS) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
