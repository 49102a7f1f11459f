import { mergeRects } from '../lod';
import type { Interval } from '../modelTypes';
import { ink, inkMuted, okabeIto, paper } from '../palette';
import { laneBands } from '../scales';
import type { PaintJob, PaintRange } from './paintJob';
import type { RenderContext, XOf } from './context';
import type { Band } from './intervals';
import type { Glyph } from './glyphShapes';
import { inRows } from './visibleRows';

/**
 * Heavy runs (thousands of bars, writes and captions) are painted on the canvas, not kept as
 * SVG: restyling and laying out thousands of SVG nodes per zoom frame is what breaks 16 ms.
 * Everything is culled to the visible time range first. Shapes match their SVG twins, so the
 * picture looks the same; the accessible equivalent is the event list, and hover/click use
 * hitTestDense below.
 */
export interface DenseMarks {
  /** Stretch bars (lease, projection, belief), sorted by start. */
  intervals: Interval[];
  back: Band[];
  front: Band[];
  glyphs: Glyph[];
  /** Longest interval or band, so a sorted scan can start early enough. */
  maxSpanMs: number;
}

/** Collects the marks a heavy run paints on the canvas. */
export function denseMarksOf(ctx: RenderContext, back: Band[], front: Band[], glyphs: Glyph[]): DenseMarks {
  const intervals = ctx.model.intervals
    .filter((i) => i.kind === 'lease' || i.kind === 'leaseProjection' || i.kind === 'belief')
    .sort((a, b) => a.startMs - b.startMs);
  let maxSpanMs = 0;
  for (const i of intervals) maxSpanMs = Math.max(maxSpanMs, i.endMs - i.startMs);
  return { intervals, back, front, glyphs: [...glyphs].sort((a, b) => a.at - b.at), maxSpanMs };
}

const patterns = new WeakMap<CanvasRenderingContext2D, Map<string, CanvasPattern | null>>();

/** A hatch like the SVG defs' patterns, made once per canvas context. */
function hatch(c: CanvasRenderingContext2D, kind: string): CanvasPattern | string {
  const cache = patterns.get(c) ?? new Map<string, CanvasPattern | null>();
  patterns.set(c, cache);
  if (!cache.has(kind)) {
    const spec: Record<string, [string, string, number]> = {
      pause: [inkMuted, '#eceef1', 7],
      crash: [ink, '#d9d9de', 6],
      staleBelief: [okabeIto.vermillion, '#fde9dc', 6],
      partition: ['#f0b48a', '#fff7f1', 8],
      violation: [okabeIto.vermillion, 'rgba(213,94,0,0.06)', 10],
    };
    const [line, background, gap] = spec[kind] ?? [inkMuted, paper, 8];
    // The painters draw on the raster's OffscreenCanvas (canvasRaster.ts), which has no document.
    const tile = new OffscreenCanvas(gap, gap);
    const t = tile.getContext('2d');
    if (t) {
      t.fillStyle = background;
      t.fillRect(0, 0, gap, gap);
      t.strokeStyle = line;
      t.lineWidth = 1.5;
      t.beginPath();
      t.moveTo(0, gap);
      t.lineTo(gap, 0);
      t.stroke();
    }
    cache.set(kind, c.createPattern(tile, 'repeat'));
  }
  return cache.get(kind) ?? paper;
}

/** Index of the first item whose start is at or after `ms` (items sorted by `startOf`). */
function firstFrom<T>(items: readonly T[], ms: number, startOf: (t: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(items[mid]!) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Bars per job: small enough that one job stays well inside a frame. */
const BARS_PER_JOB = 150;

/**
 * Bands, bars and glyphs that are in the range and have happened by its cursor, as paint jobs
 * in order: back bands, bars (in chunks), front bands, glyphs.
 */
export function denseMarkJobs(ctx: RenderContext, marks: DenseMarks, range: PaintRange): PaintJob[] {
  const { x, fromPx, toPx, rows, cursorId } = range;
  // Lanes scrolled out of view are skipped whole (a herd's plot is far taller than a screen).
  const shown = (laneId: string) => {
    const lane = ctx.lane(laneId);
    return lane && inRows(rows, lane.index * ctx.layout.laneHeightPx, (lane.index + 1) * ctx.layout.laneHeightPx)
      ? lane
      : undefined;
  };
  const t0 = ctx.x0.invert(0);
  const tMs = (px: number) => t0 + ((px - x(0)) / (x(1000) - x(0))) * 1000;
  const fromMs = tMs(fromPx);
  const toMs = tMs(toPx);

  const paintBands =
    (list: Band[], from: number, to: number): PaintJob =>
    (c) => {
      for (let n = from; n < to; n++) {
        const b = list[n]!;
        if (b.id > cursorId || b.endMs < fromMs || b.startMs > toMs) continue;
        const lane = shown(b.lane);
        if (!lane) continue;
        const bands = laneBands(ctx.layout, lane);
        const [y0, y1] =
          b.kind === 'staleBelief'
            ? bands.main
            : b.kind === 'violation' || b.kind === 'partition'
              ? [bands.top + 2, bands.bottom - 2]
              : [bands.main[1] + 3, bands.bottom - 2];
        const x0 = x(b.startMs);
        const w = Math.max(1, x(b.endMs) - x0);
        c.fillStyle = hatch(c, b.kind);
        c.fillRect(x0, y0, w, y1 - y0);
        c.strokeStyle = b.kind === 'pause' ? '#8a8d94' : b.kind === 'crash' ? ink : okabeIto.vermillion;
        c.lineWidth = b.kind === 'violation' || b.kind === 'partition' ? 2 : 1;
        c.strokeRect(x0, y0, w, y1 - y0);
      }
    };

  // Bars: start from the first that could still reach the range, and batch them by look (kind
  // and owner colour) so each batch is one fill and one stroke. Bars of one look on one row
  // less than a pixel apart are merged first: zoomed out, that is most of them.
  const paintBars =
    (from: number, to: number): PaintJob =>
    (c) => {
      const bars = new Map<string, { kind: Interval['kind']; color: string; rects: number[] }>();
      for (let n = from; n < to; n++) {
        const i = marks.intervals[n]!;
        if (i.startId > cursorId || i.endMs < fromMs || !shown(i.lane)) continue;
        const [y0, y1] = ctx.barBand(i);
        const x0 = Math.max(fromPx - 2, x(i.startMs));
        const w = Math.max(0.5, Math.min(toPx + 2, x(i.endMs)) - x0);
        const color = ctx.colorOf(i.owner);
        const key = `${i.kind}|${color}`;
        let batch = bars.get(key);
        if (!batch) bars.set(key, (batch = { kind: i.kind, color, rects: [] }));
        batch.rects.push(x0, y0, w, y1 - y0);
      }
      for (const { kind, color, rects } of bars.values()) {
        const merged = mergeRects(rects);
        c.beginPath();
        for (let r = 0; r < merged.length; r += 4) c.rect(merged[r]!, merged[r + 1]!, merged[r + 2]!, merged[r + 3]!);
        c.fillStyle = color;
        c.globalAlpha = kind === 'lease' ? 1 : kind === 'leaseProjection' ? 0.45 : 0.12;
        c.fill();
        c.globalAlpha = 1;
        if (kind !== 'leaseProjection') {
          c.strokeStyle = kind === 'lease' ? ink : color;
          c.lineWidth = kind === 'lease' ? 1 : 2;
          c.stroke();
        }
      }
    };

  const glyphs =
    (from: number, to: number): PaintJob =>
    (c) => {
      c.lineWidth = 1.5;
      for (let n = from; n < to; n++) {
        const g = marks.glyphs[n]!;
        if (g.id > cursorId) continue;
        const lane = shown(g.lane);
        if (!lane) continue;
        paintGlyph(c, ctx, g, x(g.at), laneBands(ctx.layout, lane));
      }
    };

  const jobs: PaintJob[] = [];
  const chunks = (from: number, to: number, size: number, job: (from: number, to: number) => PaintJob) => {
    for (let start = from; start < to; start += size) jobs.push(job(start, Math.min(to, start + size)));
  };
  chunks(0, marks.back.length, BARS_PER_JOB, (a, b) => paintBands(marks.back, a, b));
  const first = firstFrom(marks.intervals, fromMs - marks.maxSpanMs, (i) => i.startMs);
  let last = first;
  while (last < marks.intervals.length && marks.intervals[last]!.startMs <= toMs) last++;
  chunks(first, last, BARS_PER_JOB, paintBars);
  chunks(0, marks.front.length, BARS_PER_JOB, (a, b) => paintBands(marks.front, a, b));
  const g0 = firstFrom(marks.glyphs, fromMs - 1, (g) => g.at);
  let g1 = g0;
  while (g1 < marks.glyphs.length && marks.glyphs[g1]!.at <= toMs) g1++;
  chunks(g0, g1, BARS_PER_JOB, glyphs);
  return jobs;
}

/** One point glyph: a write's circle or crossed square, or a small outlined dot for the rest. */
function paintGlyph(
  c: CanvasRenderingContext2D,
  ctx: RenderContext,
  g: Glyph,
  px: number,
  bands: ReturnType<typeof laneBands>,
): void {
  c.strokeStyle = ink;
  if (g.kind === 'write') {
    const y = bands.mid;
    if (g.write.accepted) {
      c.fillStyle = ctx.colorOf(g.write.owner);
      c.beginPath();
      c.arc(px, y, 6, 0, Math.PI * 2);
      c.fill();
      c.stroke();
    } else {
      c.fillStyle = paper;
      c.strokeStyle = okabeIto.vermillion;
      c.lineWidth = 2;
      c.fillRect(px - 6, y - 6, 12, 12);
      c.strokeRect(px - 6, y - 6, 12, 12);
      c.beginPath();
      c.moveTo(px - 3.5, y - 3.5);
      c.lineTo(px + 3.5, y + 3.5);
      c.moveTo(px - 3.5, y + 3.5);
      c.lineTo(px + 3.5, y - 3.5);
      c.stroke();
      c.lineWidth = 1.5;
    }
    return;
  }
  const y = bands.ticks[0];
  c.fillStyle = g.kind === 'restart' ? okabeIto.bluishGreen : paper;
  c.beginPath();
  c.arc(px, y, 5, 0, Math.PI * 2);
  c.fill();
  c.stroke();
}

/** What is under the pointer on a heavy run's canvas: the event to describe, if any. */
export function hitTestDense(
  ctx: RenderContext,
  marks: DenseMarks,
  x: XOf,
  px: number,
  py: number,
  cursorId: number,
): number | null {
  const lane = ctx.model.lanes.find((l) => {
    const b = laneBands(ctx.layout, l);
    return py >= b.top && py < b.bottom;
  });
  if (!lane) return null;
  // Glyphs first (small targets win), within 8 px.
  let best: { id: number; d: number } | null = null;
  for (const g of marks.glyphs) {
    if (g.lane !== lane.id || g.id > cursorId) continue;
    const d = Math.abs(x(g.at) - px);
    if (d <= 8 && (!best || d < best.d)) best = { id: g.id, d };
  }
  if (best) return best.id;
  for (const i of marks.intervals) {
    if (i.lane !== lane.id || i.startId > cursorId) continue;
    if (x(i.startMs) <= px && px <= x(i.endMs)) return i.startId;
  }
  return null;
}
