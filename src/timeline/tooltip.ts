import type { Selection } from 'd3-selection';
import type { MarkInfo } from './markInfo';
import { ink, paper } from './palette';
import type { Box } from './layers/labelLayout';

type G = Selection<SVGGElement, unknown, null, undefined>;

const LINE_PX = 15;
const CHAR_PX = 7.1;
const MAX_CHARS = 58;

/** Space between a mark and its tooltip. */
const GAP_PX = 8;
/** Marks narrower than this (writes, verdicts, small marks) get their tooltip beside them. */
const NARROW_PX = 48;

/**
 * Where a tooltip of `widthPx` × `heightPx` goes so that it sits beside `mark` without covering
 * it: right of a small mark (or left, near the right edge), above or below a bar or an arrow
 * (at the pointer's x when there is one), always inside `bounds`.
 */
export function tooltipPosition(
  mark: Box,
  widthPx: number,
  heightPx: number,
  bounds: { width: number; height: number },
  pointerX: number | null,
): { x: number; y: number } {
  const clampX = (x: number) => Math.max(4, Math.min(bounds.width - widthPx - 4, x));
  const clampY = (y: number) => Math.max(4, Math.min(bounds.height - heightPx - 4, y));
  if (mark.x1 - mark.x0 < NARROW_PX) {
    const y = clampY((mark.y0 + mark.y1) / 2 - heightPx / 2);
    if (mark.x1 + GAP_PX + widthPx <= bounds.width - 4) return { x: mark.x1 + GAP_PX, y };
    if (mark.x0 - GAP_PX - widthPx >= 4) return { x: mark.x0 - GAP_PX - widthPx, y };
  }
  const x = clampX((pointerX ?? mark.x0) - 12);
  if (mark.y1 + GAP_PX + heightPx <= bounds.height - 4) return { x, y: mark.y1 + GAP_PX };
  if (mark.y0 - GAP_PX - heightPx >= 4) return { x, y: mark.y0 - GAP_PX - heightPx };
  // Neither above nor below has room (a tall mark in a short svg): the side with more room.
  return { x, y: clampY(mark.y0 > bounds.height - mark.y1 ? 4 : bounds.height - heightPx - 4) };
}

/**
 * A tooltip drawn inside the svg (so it needs no HTML overlay and works the same on focus and
 * hover): the mark's sentence, then the few fields worth knowing, beside the mark rather than on
 * it. It repeats what the focused mark's accessible name says, so it is hidden from assistive
 * technology.
 */
export function showTooltip(
  g: G,
  info: MarkInfo,
  mark: Box,
  pointerX: number | null,
  boundsW: number,
  boundsH: number,
): void {
  const lines = [
    ...wrap(info.headline),
    ...info.rows
      .slice(0, 9)
      .map(([k, v]) => `${k}: ${v.length > MAX_CHARS - k.length ? `${v.slice(0, MAX_CHARS - k.length - 1)}…` : v}`),
  ];
  const widthPx = Math.min(MAX_CHARS, Math.max(...lines.map((l) => l.length))) * CHAR_PX + 16;
  const heightPx = lines.length * LINE_PX + 10;
  const { x, y } = tooltipPosition(mark, widthPx, heightPx, { width: boundsW, height: boundsH }, pointerX);
  g.attr('aria-hidden', 'true')
    .attr('pointer-events', 'none')
    .attr('visibility', 'visible')
    .attr('transform', `translate(${x},${y})`);
  g.selectAll('rect')
    .data([0])
    .join('rect')
    .attr('width', widthPx)
    .attr('height', heightPx)
    .attr('rx', 4)
    .attr('fill', ink)
    .attr('fill-opacity', 0.94);
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
