import { ink, okabeIto, paper } from '../palette';
import type { RenderContext } from './context';
import type { PointMark, ViolationHighlight, WriteMark } from '../modelTypes';

// How each glyph looks: the SVG shapes of writes, verdicts and point marks (marks.ts decides
// which glyphs there are and where they go).

/** A mark drawn at one instant on one lane; positioned by a translate so shapes never stretch. */
export type Glyph =
  | { key: string; kind: 'write'; id: number; lane: string; at: number; write: WriteMark }
  | { key: string; kind: 'verdict'; id: number; lane: string; at: number; violation: ViolationHighlight }
  | { key: string; kind: PointGlyphKind; id: number; lane: string; at: number; point: PointMark };

/** Point marks drawn as shapes (the rest are ticks). */
const POINT_GLYPHS = ['clockJump', 'restart', 'timeout', 'late', 'sync', 'role', 'sentinel'] as const;
type PointGlyphKind = (typeof POINT_GLYPHS)[number];
export const isPointGlyph = (kind: string): kind is PointGlyphKind =>
  (POINT_GLYPHS as readonly string[]).includes(kind);

/**
 * Where a sentinel's words start: clear of its own square and the label pass's gap, which an
 * 11 px start is not (the pass then hides the words of every small mark).
 */
export const STAGE_LABEL_X = 13;

/** Line height of a point mark's label written on several lines. */
const LINE_PX = 13;

/** A point mark's label as lines with their baselines, centred on the mark. */
export function pointLines(p: PointMark): { text: string; y: number }[] {
  const lines = p.lines ?? [p.label];
  return lines.map((text, i) => ({ text, y: 4 + Math.round((i - (lines.length - 1) / 2) * LINE_PX) }));
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Appends a child element with attributes. */
function add(parent: Element, tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = parent.ownerDocument.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  parent.appendChild(el);
  return el;
}

/**
 * Baseline of a write's token line: high enough that the verdict triangle flagging the write
 * (beside it, its tip at the same height as the mark's top) fits under the token's end on a phone.
 */
export const TOKEN_Y_PX = -18;

/**
 * Shapes: an accepted write is a filled circle in the writer's colour; a rejected write is an
 * X in a square; a broken invariant is a warning triangle with a short caption. Each has an
 * invisible focus ring and a token label, so shape and text carry the meaning, not colour.
 */
export function drawShape(el: SVGGElement, d: Glyph, ctx: RenderContext): void {
  switch (d.kind) {
    case 'write': {
      const w = d.write;
      if (w.accepted) {
        add(el, 'circle', { class: 'tl-hit', r: 8, fill: ctx.colorOf(w.owner), stroke: ink, 'stroke-width': 1.5 });
      } else {
        add(el, 'rect', {
          class: 'tl-hit',
          x: -8,
          y: -8,
          width: 16,
          height: 16,
          fill: paper,
          stroke: okabeIto.vermillion,
          'stroke-width': 2.5,
        });
        add(el, 'path', {
          d: 'M-4.5,-4.5L4.5,4.5M-4.5,4.5L4.5,-4.5',
          stroke: okabeIto.vermillion,
          'stroke-width': 2.5,
          'stroke-linecap': 'round',
        });
      }
      add(el, 'rect', { class: 'tl-focus-ring', x: -12, y: -12, width: 24, height: 24, rx: 4 });
      const token = w.token === null ? 'no token' : `token ${w.token}`;
      add(el, 'text', { class: 'tl-token', y: TOKEN_Y_PX, 'text-anchor': 'middle' }, w.accepted ? token : `${token} ✕`);
      add(el, 'text', { class: 'tl-token', y: 22, 'text-anchor': 'middle', fill: ink }, ctx.labelOf(w.owner));
      break;
    }
    case 'verdict': {
      add(el, 'path', {
        class: 'tl-hit',
        d: 'M0,-14L13,9L-13,9Z',
        fill: okabeIto.vermillion,
        stroke: ink,
        'stroke-width': 1.5,
        'stroke-linejoin': 'round',
      });
      add(el, 'text', { y: 6, 'text-anchor': 'middle', fill: paper, 'font-weight': 800, 'font-size': 13 }, '!');
      add(el, 'rect', { class: 'tl-focus-ring', x: -17, y: -18, width: 34, height: 32, rx: 4 });
      break;
    }
    case 'clockJump':
      add(el, 'circle', { class: 'tl-hit', r: 7, fill: paper, stroke: ink, 'stroke-width': 1.5 });
      add(el, 'path', { d: 'M0,-4V0L3,2', stroke: ink, 'stroke-width': 1.5, fill: 'none' });
      add(el, 'rect', { class: 'tl-focus-ring', x: -10, y: -10, width: 20, height: 20, rx: 4 });
      add(el, 'text', { class: 'tl-token', x: 10, y: 4 }, d.point.label);
      break;
    case 'restart':
      // Pointing right, as a play button: the process runs again (a warning triangle points up).
      add(el, 'path', {
        class: 'tl-hit',
        d: 'M-6,-7L8,0L-6,7Z',
        fill: okabeIto.bluishGreen,
        stroke: ink,
        'stroke-width': 1.5,
      });
      add(el, 'rect', { class: 'tl-focus-ring', x: -10, y: -11, width: 20, height: 20, rx: 4 });
      break;
    case 'timeout':
      // An hourglass: the client stopped waiting.
      add(el, 'path', {
        class: 'tl-hit',
        d: 'M-6,-7H6L-6,7H6Z',
        fill: paper,
        stroke: okabeIto.vermillion,
        'stroke-width': 2,
        'stroke-linejoin': 'round',
      });
      labelled(el, d.point.label);
      break;
    case 'late':
      add(el, 'circle', {
        class: 'tl-hit',
        r: 6,
        fill: paper,
        stroke: ink,
        'stroke-width': 1.5,
        'stroke-dasharray': '2 2',
      });
      add(el, 'path', { d: 'M-3,0H3M1,-2.5L3.5,0L1,2.5', stroke: ink, 'stroke-width': 1.5, fill: 'none' });
      labelled(el, d.point.label);
      break;
    case 'sync':
      add(el, 'rect', {
        class: 'tl-hit',
        x: -7,
        y: -6,
        width: 10,
        height: 9,
        fill: paper,
        stroke: okabeIto.bluishGreen,
        'stroke-width': 1.5,
      });
      add(el, 'rect', {
        x: -3,
        y: -2,
        width: 10,
        height: 9,
        fill: okabeIto.bluishGreen,
        stroke: ink,
        'stroke-width': 1,
      });
      labelled(el, d.point.label);
      break;
    case 'role': {
      const primary = d.point.label === 'primary';
      add(el, 'path', {
        class: 'tl-hit',
        d: 'M0,-8L8,0L0,8L-8,0Z',
        fill: primary ? okabeIto.bluishGreen : paper,
        stroke: ink,
        'stroke-width': 1.5,
      });
      add(
        el,
        'text',
        { y: 4, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 800, fill: primary ? paper : ink },
        primary ? 'P' : 'R',
      );
      labelled(el, d.point.label);
      break;
    }
    case 'sentinel':
      add(el, 'rect', {
        class: 'tl-hit',
        x: -6,
        y: -6,
        width: 12,
        height: 12,
        rx: 2,
        fill: paper,
        stroke: okabeIto.skyBlue,
        'stroke-width': 2,
      });
      add(el, 'circle', { r: 2.5, fill: ink });
      add(el, 'rect', { class: 'tl-focus-ring', x: -11, y: -11, width: 22, height: 22, rx: 4 });
      // A burst of stages is one word a line, stacked beside the mark: narrow enough for a phone.
      // A halo in the paper's colour keeps the words readable where the sentinels' PINGs cross them.
      for (const line of pointLines(d.point))
        add(
          el,
          'text',
          { class: 'tl-token', x: STAGE_LABEL_X, y: line.y, stroke: paper, 'stroke-width': 3, 'paint-order': 'stroke' },
          line.text,
        );
      break;
  }
}

/** A focus ring and a short text label to the right of a small point glyph. */
function labelled(el: SVGGElement, text: string): void {
  add(el, 'rect', { class: 'tl-focus-ring', x: -11, y: -11, width: 22, height: 22, rx: 4 });
  add(el, 'text', { class: 'tl-token', x: 11, y: 4 }, text);
}
