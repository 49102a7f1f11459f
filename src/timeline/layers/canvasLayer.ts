import type { Selection } from 'd3-selection';
import type { MessageMark, PointMark } from '../modelTypes';
import { inkMuted, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';
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
export function paintCanvas(ctx: RenderContext, canvas: HTMLCanvasElement, x: XOf, cursorX: number, cursorId: number, ticks: readonly PointMark[]): number {
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
  let drawn = 0;

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

  const messages = ctx.model.messages;
  for (const m of messages) {
    if (m.sendId > cursorId) continue;
    const x1 = x(m.startMs);
    const x2 = x(m.endMs);
    if (x2 < 0 || x1 > w) continue;
    drawn += drawArrow(c, ctx, m, x1, x2) ? 1 : 0;
  }
  c.restore();
  return drawn;
}

/** One arrow on the canvas, styled like its SVG twin. */
function drawArrow(c: CanvasRenderingContext2D, ctx: RenderContext, m: MessageMark, x1: number, x2: number): boolean {
  const ys = messageYs(ctx, m);
  if (!ys) return false;
  const style = messageStyle(m);
  c.strokeStyle = style.color;
  c.lineWidth = style.widthPx;
  c.setLineDash(style.dash ? style.dash.split(' ').map(Number) : []);
  c.beginPath();
  c.moveTo(x1, ys[0]);
  c.lineTo(x2, ys[1]);
  c.stroke();
  c.setLineDash([]);
  if (m.fate === 'dropped') {
    c.strokeStyle = okabeIto.vermillion;
    c.lineWidth = 2.5;
    c.beginPath();
    c.moveTo(x2 - 5, ys[1] - 5);
    c.lineTo(x2 + 5, ys[1] + 5);
    c.moveTo(x2 - 5, ys[1] + 5);
    c.lineTo(x2 + 5, ys[1] - 5);
    c.stroke();
  } else if (m.fate !== 'inFlight') {
    const angle = Math.atan2(ys[1] - ys[0], x2 - x1);
    c.fillStyle = style.color;
    c.beginPath();
    c.moveTo(x2, ys[1]);
    c.lineTo(x2 - 7 * Math.cos(angle - 0.45), ys[1] - 7 * Math.sin(angle - 0.45));
    c.lineTo(x2 - 7 * Math.cos(angle + 0.45), ys[1] - 7 * Math.sin(angle + 0.45));
    c.closePath();
    c.fill();
  }
  return true;
}
