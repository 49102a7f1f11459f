import type { Selection } from 'd3-selection';
import { pixelKey } from '../lod';
import type { MessageMark, PointMark } from '../modelTypes';
import { inkMuted, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';
import { denseMarkJobs, type DenseMarks } from './denseCanvas';
import type { PaintJob, PaintRange, Rows } from './paintJob';
import { messageStyle, messageYs } from './messages';
import { inRows } from './visibleRows';

type G = Selection<SVGGElement, unknown, null, undefined>;

/**
 * For very large traces the dense layers (arrows and ticks) are painted on a canvas inside the
 * svg: a full redraw of what is on screen stays under a frame where tens of thousands of SVG
 * elements cannot. Marks outside the visible time range are skipped before any drawing.
 */
export function ensureCanvas(ctx: RenderContext, g: G, rows: Rows): HTMLCanvasElement {
  const { plotWidthPx } = ctx.layout;
  const heightPx = rows.bottomPx - rows.topPx;
  let fo = g.select<SVGForeignObjectElement>('foreignObject.tl-canvas-host');
  if (fo.empty()) {
    fo = g.append('foreignObject').attr('class', 'tl-canvas-host').attr('pointer-events', 'none');
    fo.append('xhtml:canvas').attr('class', 'tl-canvas');
  }
  // Called every frame: attributes are written only when they change, so a zoom frame does not
  // invalidate the foreignObject's layout.
  const host = fo.node()!;
  for (const [name, value] of [
    ['y', rows.topPx],
    ['width', plotWidthPx],
    ['height', heightPx],
  ] as const) {
    if (host.getAttribute(name) !== String(value)) host.setAttribute(name, String(value));
  }
  const canvas = fo.select<HTMLCanvasElement>('canvas').node()!;
  const ratio = canvas.ownerDocument.defaultView?.devicePixelRatio || 1;
  if (canvas.width !== Math.round(plotWidthPx * ratio) || canvas.height !== Math.round(heightPx * ratio)) {
    canvas.width = Math.round(plotWidthPx * ratio);
    canvas.height = Math.round(heightPx * ratio);
    canvas.style.width = `${plotWidthPx}px`;
    canvas.style.height = `${heightPx}px`;
  }
  return canvas;
}

/** Removes the canvas when a trace gets small enough for SVG again. */
export function removeCanvas(g: G): void {
  g.select('foreignObject.tl-canvas-host').remove();
}

/** Messages sorted by start, with the longest span, so a scan can start just before the view. */
export interface MessageIndex {
  sorted: MessageMark[];
  maxSpanMs: number;
  /** Messages longer than a twentieth of the run (in flight to the end...): always scanned. */
  long: MessageMark[];
}

/** Sorts a model's messages for culling by time. */
export function messageIndexOf(messages: readonly MessageMark[], endMs: number): MessageIndex {
  const sorted: MessageMark[] = [];
  const long: MessageMark[] = [];
  let maxSpanMs = 0;
  for (const m of messages) {
    if (m.endMs - m.startMs > endMs / 20) long.push(m);
    else {
      sorted.push(m);
      maxSpanMs = Math.max(maxSpanMs, m.endMs - m.startMs);
    }
  }
  sorted.sort((a, b) => a.startMs - b.startMs);
  return { sorted, maxSpanMs, long };
}

/** Arrows painted per job: small enough that one job stays well inside a frame. */
const ARROWS_PER_JOB = 60;
/** Ticks per job. */
const TICKS_PER_JOB = 600;

/**
 * The dense layers as a list of jobs, in paint order: bars, bands and glyphs of a heavy run,
 * then ticks, then arrows in chunks. Everything is culled to the range first.
 */
export function canvasJobs(
  ctx: RenderContext,
  range: PaintRange,
  ticks: readonly PointMark[],
  messages: MessageIndex,
  marks: DenseMarks | null,
): PaintJob[] {
  const { x, fromPx, toPx, rows, cursorId } = range;
  const jobs: PaintJob[] = marks ? denseMarkJobs(ctx, marks, range) : [];

  // Ticks (in time order, as the trace made them), batched into one path per job; ticks on the
  // same pixel of the same lane are drawn once.
  const fromMs = msAt(x, fromPx);
  const toMs = msAt(x, toPx);
  const seenTicks = new Set<number>();
  const firstTick = firstFrom(ticks, fromMs - 1, (p) => p.at);
  for (let start = firstTick; start < ticks.length && ticks[start]!.at <= toMs + 1; start += TICKS_PER_JOB)
    jobs.push((c) => {
      c.lineWidth = 1;
      c.strokeStyle = inkMuted;
      c.beginPath();
      const seen = seenTicks;
      for (let n = start; n < Math.min(ticks.length, start + TICKS_PER_JOB); n++) {
        const p = ticks[n]!;
        if (p.id > cursorId || (p.kind !== 'state' && p.kind !== 'replicate')) continue;
        const px = x(p.at);
        if (px < fromPx - 1 || px > toPx + 1) continue;
        const lane = ctx.lane(p.lane);
        if (!lane) continue;
        const [y0, y1] = laneBands(ctx.layout, lane).ticks;
        if (!inRows(rows, y0, y1)) continue;
        const key = Math.round(px) * 1024 + lane.index;
        if (seen.has(key)) continue;
        seen.add(key);
        c.moveTo(px, y0);
        c.lineTo(px, y1);
      }
      c.stroke();
    });

  // Arrows: only those that can reach the range, by a binary search on their start times.
  const first = firstFrom(messages.sorted, fromMs - messages.maxSpanMs, (m) => m.startMs);
  let last = first;
  while (last < messages.sorted.length && messages.sorted[last]!.startMs <= toMs) last++;
  const candidates = last - first + messages.long.length;
  // Past a few thousand arrows on screen the heads are smaller than the gaps between arrows:
  // they add raster work and no information, so they wait until the learner zooms in.
  const heads = candidates < 3000;
  // Zoomed far out, many arrows land on the same pixels: each pixel-identical arrow is drawn once.
  const seen = new Set<number>();
  const arrows =
    (list: readonly MessageMark[], from: number, to: number): PaintJob =>
    (c) =>
      paintArrows(c, ctx, list, from, to, range, seen, heads);
  for (let start = 0; start < messages.long.length; start += ARROWS_PER_JOB)
    jobs.push(arrows(messages.long, start, Math.min(messages.long.length, start + ARROWS_PER_JOB)));
  for (let start = first; start < last; start += ARROWS_PER_JOB)
    jobs.push(arrows(messages.sorted, start, Math.min(last, start + ARROWS_PER_JOB)));
  return jobs;
}

/** The time at plot pixel `px` under the zoomed scale `x`. */
function msAt(x: XOf, px: number): number {
  const perMs = (x(1000) - x(0)) / 1000;
  return (px - x(0)) / perMs;
}

/** Index of the first item whose time is at or after `ms` (items sorted by `timeOf`). */
function firstFrom<T>(sorted: readonly T[], ms: number, timeOf: (t: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (timeOf(sorted[mid]!) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Arrows list[from..to), batched by style: one path and one stroke per style. */
function paintArrows(
  c: CanvasRenderingContext2D,
  ctx: RenderContext,
  list: readonly MessageMark[],
  from: number,
  to: number,
  range: PaintRange,
  seen: Set<number>,
  heads: boolean,
): void {
  const { x, fromPx, toPx, rows, cursorId } = range;
  const batches = new Map<
    string,
    { style: ReturnType<typeof messageStyle>; lines: number[]; heads: number[]; crosses: number[] }
  >();
  for (let n = from; n < to; n++) {
    const m = list[n]!;
    if (m.sendId > cursorId) continue;
    const x1 = x(m.startMs);
    const x2 = x(m.endMs);
    if (x2 < fromPx || x1 > toPx) continue;
    const ys = messageYs(ctx, m);
    if (!ys || !inRows(rows, ys[0], ys[1])) continue;
    const key = pixelKey(x1, ys[0], x2, ys[1], m.fate === 'dropped' ? 1 : m.channel === 'request' ? 2 : 0);
    if (seen.has(key)) continue;
    seen.add(key);
    const style = messageStyle(m);
    const look = `${style.color}|${style.dash}|${style.widthPx}`;
    let batch = batches.get(look);
    if (!batch) batches.set(look, (batch = { style, lines: [], heads: [], crosses: [] }));
    batch.lines.push(x1, ys[0], x2, ys[1]);
    if (m.fate === 'dropped') batch.crosses.push(x2, ys[1]);
    else if (m.fate !== 'inFlight' && heads) batch.heads.push(x1, ys[0], x2, ys[1]);
  }
  for (const { style, lines, heads: tips, crosses } of batches.values()) {
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
    if (tips.length) {
      c.fillStyle = style.color;
      // Closed subpaths get slow to add to one huge path, so heads are filled in chunks.
      for (let start = 0; start < tips.length; start += 4 * 256) {
        c.beginPath();
        for (let i = start; i < Math.min(tips.length, start + 4 * 256); i += 4)
          arrowHead(c, tips[i]!, tips[i + 1]!, tips[i + 2]!, tips[i + 3]!);
        c.fill();
      }
    }
    if (crosses.length) {
      c.strokeStyle = style.crossColor ?? okabeIto.vermillion;
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
}

/** Adds an arrowhead at (x2, y2) pointing along the line from (x1, y1) to the current path. */
function arrowHead(c: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  c.moveTo(x2, y2);
  c.lineTo(x2 - 7 * Math.cos(angle - 0.45), y2 - 7 * Math.sin(angle - 0.45));
  c.lineTo(x2 - 7 * Math.cos(angle + 0.45), y2 - 7 * Math.sin(angle + 0.45));
  c.closePath();
}
