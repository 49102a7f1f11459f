import type { Selection } from 'd3-selection';
import { formatMs } from '../../sim/time';
import { ink, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';
import { setShown } from './marks';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** A caption that rides along an interval, shown only when the interval is wide enough. */
interface Caption {
  key: string;
  /** The event that makes it appear. */
  id: number;
  lane: string;
  startMs: number;
  endMs: number;
  text: string;
  /** 'main' sits inside the lane's main bar; 'top' above it; 'foot' below it; 'region' across a violation. */
  slot: 'main' | 'top' | 'foot' | 'region';
  color: string;
}

const CHAR_WIDTH_PX = 6.4;

/** The captions of a model: who holds each lease, what each belief and pause is, and why a region is red. */
export function captionsOf(ctx: RenderContext): Caption[] {
  const out: Caption[] = [];
  for (const i of ctx.model.intervals) {
    const owner = ctx.labelOf(i.owner ?? '');
    if (i.kind === 'lease') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: `lease: ${owner}`, slot: 'main', color: '#ffffff' });
    if (i.kind === 'belief') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: `believes it holds “${i.lockKey}”`, slot: 'main', color: ink });
    if (i.kind === 'leaseProjection') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: 'Redis lease', slot: 'top', color: ink });
    if (i.kind === 'staleBelief' && i.endMs - i.startMs > 0) out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: 'but Redis has no lease for it', slot: 'main', color: okabeIto.vermillion });
    if (i.kind === 'pause') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: `paused${i.endId === null ? '' : ` ${formatMs(i.endMs - i.startMs)}`}`, slot: 'foot', color: ink });
    if (i.kind === 'crash') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: 'crashed', slot: 'foot', color: ink });
    if (i.kind === 'partition') out.push({ key: i.key, id: i.startId, lane: i.lane, startMs: i.startMs, endMs: i.endMs, text: `✂ ${(i.detail ?? 'cut off').replace(/\b([A-Za-z][\w-]*)\b/g, (w) => (ctx.model.laneById.has(w) ? ctx.labelOf(w) : w))}`, slot: 'region', color: okabeIto.vermillion });
  }
  for (const v of ctx.model.violations) {
    const r = v.regions.find((region) => region.lane === v.markerLane);
    if (r) out.push({ key: `${v.key}:caption`, id: Math.max(-1, ...v.eventIds), lane: r.lane, startMs: r.startMs, endMs: r.endMs, text: `⚠ ${v.invariant} broken`, slot: 'region', color: okabeIto.vermillion });
  }
  return out;
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

/**
 * Places each caption at the visible start of its interval and hides it when the interval is
 * too narrow on screen to hold it, so labels never spill over their neighbours.
 */
export function positionCaptions(ctx: RenderContext, g: G, x: XOf): void {
  g.selectAll<SVGTextElement, Caption>('text.tl-band-label').each(function (c) {
    const lane = ctx.lane(c.lane);
    if (!lane) return;
    const bands = laneBands(ctx.layout, lane);
    const x0 = Math.max(x(c.startMs), 0);
    const x1 = Math.min(x(c.endMs), ctx.layout.plotWidthPx);
    const fits = x1 - x0 > c.text.length * CHAR_WIDTH_PX + 10;
    setShown(this, fits);
    if (!fits) return;
    const y = c.slot === 'main' ? (bands.main[0] + bands.main[1]) / 2 + 4 : c.slot === 'top' ? bands.projection[1] - 1 : c.slot === 'foot' ? bands.bottom - 5 : bands.top + 13;
    // Captions that share a bar with another (stale inside belief) start where their own part starts.
    this.setAttribute('x', String(c.slot === 'region' ? (x0 + x1) / 2 : x0 + 6));
    this.setAttribute('text-anchor', c.slot === 'region' ? 'middle' : 'start');
    this.setAttribute('y', String(y));
  });
}
