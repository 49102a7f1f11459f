import type { Selection } from 'd3-selection';
import { formatMs } from '../../sim/time';
import { ink, okabeIto } from '../palette';
import { laneBands } from '../scales';
import { MAX_KEY_ROWS } from '../keyRows';
import { keyRowBand, type RenderContext, type XOf } from './context';
import { textWidthPx } from './labelLayout';
import { setShown } from './marks';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** A caption that rides along an interval, shown only when the interval is wide enough. */
export interface Caption {
  key: string;
  /** The event that makes it appear. */
  id: number;
  lane: string;
  startMs: number;
  endMs: number;
  text: string;
  /**
   * 'main' sits inside the lane's main bar; 'top' above it; 'foot' below it; 'region' across a
   * violation (at the top); 'regionFoot' across a partition, at the foot, clear of the lease captions.
   */
  slot: 'main' | 'top' | 'foot' | 'region' | 'regionFoot';
  color: string;
  /** A 'main' caption's own band, when its bar is on a key row rather than the lane's main band. */
  band?: [number, number];
  /** Where the caption may start at the earliest (right of a key row's name). */
  minX?: number;
}

/** The captions of a model: who holds each lease, what each belief and pause is, and why a region is red. */
export function captionsOf(ctx: RenderContext): Caption[] {
  const out: Caption[] = [];
  for (const i of ctx.model.intervals) {
    const owner = ctx.labelOf(i.owner ?? '');
    if (i.kind === 'lease') {
      // On a lane with a row per key, the caption sits on its key's row, after the row's name.
      const rows = ctx.model.leaseKeys.has(i.lane);
      const row = rows ? { band: ctx.barBand(i), minX: keyRowLabelEndPx(i.lockKey ?? '') } : {};
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: `lease: ${owner}`,
        slot: 'main',
        color: '#ffffff',
        ...row,
      });
    }
    if (i.kind === 'belief') {
      // The stale part of a belief carries its own caption: this one must end where that starts.
      const stale = ctx.model.intervals.find(
        (s) => s.kind === 'staleBelief' && s.lane === i.lane && s.startMs > i.startMs && s.startMs < i.endMs,
      );
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: stale ? stale.startMs : i.endMs,
        text: `believes it holds “${i.lockKey}”`,
        slot: 'main',
        color: ink,
      });
    }
    // Copies of one lease (a primary's and its replica's) overlap on the owner's lane: one caption says it.
    const repeated =
      i.kind === 'leaseProjection' &&
      out.some((c) => c.slot === 'top' && c.lane === i.lane && c.startMs < i.endMs && i.startMs < c.endMs);
    if (i.kind === 'leaseProjection' && !repeated)
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: `${ctx.model.lockServer} lease`,
        slot: 'top',
        color: ink,
      });
    if (i.kind === 'staleBelief' && i.endMs - i.startMs > 0)
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: `but ${ctx.model.lockServer} has no lease for it`,
        slot: 'main',
        color: okabeIto.vermillion,
      });
    if (i.kind === 'pause')
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: `paused${i.endId === null ? '' : ` ${formatMs(i.endMs - i.startMs)}`}`,
        slot: 'foot',
        color: ink,
      });
    if (i.kind === 'crash')
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: 'crashed',
        slot: 'foot',
        color: ink,
      });
    if (i.kind === 'partition')
      out.push({
        key: i.key,
        id: i.startId,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        text: `✂ ${(i.detail ?? 'cut off').replace(/\b([A-Za-z][\w-]*)\b/g, (w) => (ctx.model.laneById.has(w) ? ctx.labelOf(w) : w))}`,
        slot: 'regionFoot',
        color: okabeIto.vermillion,
      });
  }
  for (const v of ctx.model.violations) {
    const r = v.regions.find((region) => region.lane === v.markerLane);
    if (r)
      out.push({
        key: `${v.key}:caption`,
        id: Math.max(-1, ...v.eventIds),
        lane: r.lane,
        startMs: r.startMs,
        endMs: r.endMs,
        text: `⚠ ${v.invariant} broken`,
        slot: 'region',
        color: okabeIto.vermillion,
      });
  }
  return out;
}

/** Where a key row's name (drawn at the plot's left edge) ends. */
function keyRowLabelEndPx(key: string): number {
  return 4 + key.length * 6.4 + 4;
}

/**
 * The key of each row on a lane that leases several keys, written at the plot's left edge. They
 * do not move when zooming, so whatever part of the run is in view, the rows stay named.
 */
export function drawKeyRowLabels(ctx: RenderContext, g: G): void {
  const rows: { key: string; text: string; y: number }[] = [];
  for (const [laneId, keys] of ctx.model.leaseKeys) {
    const lane = ctx.lane(laneId);
    if (!lane) continue;
    keys.slice(0, MAX_KEY_ROWS).forEach((k, i) => {
      const [y0, y1] = keyRowBand(ctx.layout, lane, i, keys.length);
      rows.push({
        key: `${laneId}|${k}`,
        text: i === MAX_KEY_ROWS - 1 && keys.length > MAX_KEY_ROWS ? `${k} and ${keys.length - MAX_KEY_ROWS} more` : k,
        y: (y0 + y1) / 2 + 4,
      });
    });
  }
  g.selectAll<SVGTextElement, (typeof rows)[number]>('text.tl-key-row')
    .data(rows, (r) => r.key)
    .join('text')
    .attr('class', 'tl-key-row')
    .attr('x', 4)
    .attr('y', (r) => r.y)
    .attr('fill', ink)
    .attr('stroke', '#ffffff')
    .attr('stroke-width', 3)
    .attr('stroke-linejoin', 'round')
    .attr('paint-order', 'stroke')
    .text((r) => r.text);
}

/** Joins captions by key. */
export function drawCaptions(ctx: RenderContext, g: G, captions: Caption[]): void {
  g.selectAll<SVGTextElement, Caption>('text.tl-band-label')
    .data(captions, (c) => c.key)
    .join('text')
    .attr('class', 'tl-band-label')
    .attr('fill', (c) => c.color)
    // A paper-coloured halo keeps captions legible over hatching; white-on-bar text needs none.
    .attr('stroke', (c) => (c.color === '#ffffff' ? 'none' : '#ffffff'))
    .attr('stroke-width', 3)
    .attr('stroke-linejoin', 'round')
    .attr('paint-order', 'stroke')
    .attr('data-slot', (c) => c.slot)
    .attr('data-id', (c) => c.id)
    .text((c) => c.text);
}

/** A caption where positionCaptions put it: left edge and baseline, and how far right it may go. */
export interface PlacedCaption {
  el: SVGTextElement;
  caption: Caption;
  x: number;
  y: number;
  /** The furthest right its left edge may move and still end inside its interval. */
  maxX: number;
}

/**
 * Places each caption at the visible start of its interval (a region's in its middle) and hides
 * it when the interval is too narrow on screen to hold it. Returns the captions shown, for the
 * label pass (labelPass.ts) to move clear of marks and of each other.
 */
export function positionCaptions(ctx: RenderContext, g: G, x: XOf): PlacedCaption[] {
  const placed: PlacedCaption[] = [];
  g.selectAll<SVGTextElement, Caption>('text.tl-band-label').each(function (c) {
    const lane = ctx.lane(c.lane);
    // A lease whose owner is no lane (a value several clients share reads as 'someone') has
    // nowhere to be drawn: its caption must not linger at the plot's corner.
    setShown(this, lane !== undefined);
    if (!lane) return;
    const bands = laneBands(ctx.layout, lane);
    const x0 = Math.max(x(c.startMs), c.minX ?? 0);
    const x1 = Math.min(x(c.endMs), ctx.layout.plotWidthPx);
    const width = textWidthPx(c.text);
    const fits = x1 - x0 > width + 10;
    setShown(this, fits);
    if (!fits) return;
    const main = c.band ?? bands.main;
    const y =
      c.slot === 'main'
        ? (main[0] + main[1]) / 2 + 4
        : c.slot === 'top'
          ? bands.projection[1] - 1
          : c.slot === 'foot' || c.slot === 'regionFoot'
            ? bands.bottom - 5
            : bands.top + 13;
    // Captions that share a bar with another (stale inside belief) start where their own part starts.
    const centred = c.slot === 'region' || c.slot === 'regionFoot';
    const left = centred ? (x0 + x1 - width) / 2 : x0 + 6;
    placed.push({ el: this, caption: c, x: left, y, maxX: x1 - 4 - width });
  });
  return placed;
}

/** Writes where the label pass put a caption (null: hidden). */
export function moveCaption(p: PlacedCaption, dx: number | null): void {
  setShown(p.el, dx !== null);
  if (dx === null) return;
  p.el.setAttribute('x', String(Math.round((p.x + dx) * 10) / 10));
  p.el.setAttribute('text-anchor', 'start');
  p.el.setAttribute('y', String(p.y));
}
