import type { Selection } from 'd3-selection';
import type { PointMark } from '../modelTypes';
import { inkMuted, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';
import { paintDenseMarks, type DenseMarks } from './denseCanvas';
import { messageStyle, messageYs } from './messages';

type G = Selection<SVGGElement, unknown, null, undefined>;

/**
 * For very large traces the dense layers (arrows and ticks) are painted on a canvas inside the
 * svg: a full redraw of what is on screen stays under a frame where tens of thousands of SVG
 * elements cannot. Marks outside the visible time range are skipped before any drawing.
 */
export function ensureCanvas(ctx: RenderContext, g: G): HTMLCanvasElement {
  const { plotWidthPx, plotHeightPx } = ctx.layout;
  let fo = g.select<SVGForeignObjectElement>('foreignObject.tl-canvas-host');
  if (fo.empty()) {
    fo = g.append('foreignObject').attr('class', 'tl-canvas-host').attr('pointer-events', 'none');
    fo.append('xhtml:canvas').attr('class', 'tl-canvas');
  }
  fo.attr('width', plotWidthPx).attr('height', plotHeightPx);
  const canvas = fo.select<HTMLCanvasElement>('canvas').node()!;
  const ratio = globalThis.devicePixelRatio || 1;
  if (canvas.width !== Math.round(plotWidthPx * ratio) || canvas.height !== Math.round(plotHeightPx * ratio)) {
    canvas.width = Math.round(plotWidthPx * ratio);
    canvas.height = Math.round(plotHeightPx * ratio);
    canvas.style.width = `${plotWidthPx}px`;
    canvas.style.height = `${plotHeightPx}px`;
  }
  return canvas;
}

/** Removes the canvas when a trace gets small enough for SVG again. */
export function removeCanvas(g: G): void {
  g.select('foreignObject.tl-canvas-host').remove();
}

/** Paints visible arrows and ticks that happened by `cursorId`/`cursorX`. Returns how many were drawn. */
export function paintCanvas(ctx: RenderContext, canvas: HTMLCanvasElement, x: XOf, cursorX: number, cursorId: number, ticks: readonly PointMark[], marks: DenseMarks | null = null): number {
  const c = canvas.getContext('2d');
  if (!c) return 0;
  const ratio = canvas.width / Math.max(1, ctx.layout.plotWidthPx);
  const w = ctx.layout.plotWidthPx;
  c.setTransform(ratio, 0, 0, ratio, 0, 0);
  c.clearRect(0, 0, w, ctx.layout.plotHeightPx);
  c.save();
  c.beginPath();
  c.rect(0, 0, Math.max(0, Math.min(w, cursorX + 1)), ctx.layout.plotHeightPx);
  c.clip();
  let drawn = marks ? paintDenseMarks(c, ctx, marks, x, w, cursorId) : 0;

  // Ticks first, batched into one path per colour.
  c.lineWidth = 1;
  c.strokeStyle = inkMuted;
  c.beginPath();
  for (const p of ticks) {
    if (p.id > cursorId || (p.kind !== 'state' && p.kind !== 'replicate')) continue;
    const px = x(p.at);
    if (px < -1 || px > w + 1) continue;
    const lane = ctx.lane(p.lane);
    if (!lane) continue;
    const [y0, y1] = laneBands(ctx.layout, lane).ticks;
    c.moveTo(px, y0);
    c.lineTo(px, y1);
    drawn++;
  }
  c.stroke();

  // Arrows are batched by style: one path and one stroke per style instead of one per arrow,
  // which is what keeps tens of thousands of them inside a frame.
  const batches = new Map<string, { style: ReturnType<typeof messageStyle>; lines: number[]; heads: number[]; crosses: number[] }>();
  // Zoomed far out, many arrows land on the same pixels: draw each pixel-identical arrow once.
  const seen = new Set<number>();
  for (const m of ctx.model.messages) {
    if (m.sendId > cursorId) continue;
    const x1 = x(m.startMs);
    const x2 = x(m.endMs);
    if (x2 < 0 || x1 > w) continue;
    const ys = messageYs(ctx, m);
    if (!ys) continue;
    const style = messageStyle(m);
    const pixelKey = ((((Math.round(x1) + 4096) * 8192 + Math.round(x2) + 4096) * 64 + ys[0] / 8) * 64 + ys[1] / 8) * 8 + (m.fate === 'dropped' ? 1 : m.channel === 'request' ? 2 : 0);
    if (seen.has(pixelKey)) continue;
    seen.add(pixelKey);
    const key = `${style.color}|${style.dash}|${style.widthPx}`;
    let batch = batches.get(key);
    if (!batch) batches.set(key, (batch = { style, lines: [], heads: [], crosses: [] }));
    batch.lines.push(x1, ys[0], x2, ys[1]);
    if (m.fate === 'dropped') batch.crosses.push(x2, ys[1]);
    else if (m.fate !== 'inFlight') batch.heads.push(x1, ys[0], x2, ys[1]);
    drawn++;
  }
  for (const { style, lines, heads, crosses } of batches.values()) {
    c.strokeStyle = style.color;
    c.lineWidth = style.widthPx;
    c.setLineDash(style.dash ? style.dash.split(' ').map(Number) : []);
    c.beginPath();
    for (let i = 0; i < lines.length; i += 4) {
      c.moveTo(lines[i]!, lines[i + 1]!);
      c.lineTo(lines[i + 2]!, lines[i + 3]!);
    }
    c.stroke();
    c.setLineDash([]);
    // Past a few thousand visible arrows the heads are smaller than the gaps between arrows:
    // they add raster work and no information, so they wait until the learner zooms in.
    if (heads.length && drawn < 3000) {
      c.fillStyle = style.color;
      // Closed subpaths get slow to add to one huge path, so heads are filled in chunks.
      for (let start = 0; start < heads.length; start += 4 * 256) {
        c.beginPath();
        for (let i = start; i < Math.min(heads.length, start + 4 * 256); i += 4) arrowHead(c, heads[i]!, heads[i + 1]!, heads[i + 2]!, heads[i + 3]!);
        c.fill();
      }
    }
    if (crosses.length) {
      c.strokeStyle = okabeIto.vermillion;
      c.lineWidth = 2.5;
      c.beginPath();
      for (let i = 0; i < crosses.length; i += 2) {
        const cx = crosses[i]!;
        const cy = crosses[i + 1]!;
        c.moveTo(cx - 5, cy - 5);
        c.lineTo(cx + 5, cy + 5);
        c.moveTo(cx - 5, cy + 5);
        c.lineTo(cx + 5, cy - 5);
      }
      c.stroke();
    }
  }
  c.restore();
  return drawn;
}

/** Adds an arrowhead at (x2, y2) pointing along the line from (x1, y1) to the current path. */
function arrowHead(c: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  c.moveTo(x2, y2);
  c.lineTo(x2 - 7 * Math.cos(angle - 0.45), y2 - 7 * Math.sin(angle - 0.45));
  c.lineTo(x2 - 7 * Math.cos(angle + 0.45), y2 - 7 * Math.sin(angle + 0.45));
  c.closePath();
}
