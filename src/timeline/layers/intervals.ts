import type { Selection } from 'd3-selection';
import { formatMs } from '../../sim/time';
import type { Interval } from '../modelTypes';
import { laneBands } from '../scales';
import type { RenderContext, XOf } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

/**
 * Lease, projection and belief bars. They sit in one group whose single transform does the
 * zooming, so a zoom frame costs one attribute write however many bars there are; strokes
 * are non-scaling so outlines stay crisp at any zoom.
 */
export function drawStretchIntervals(ctx: RenderContext, g: G): void {
  const items = ctx.model.intervals.filter(
    (i) => i.kind === 'lease' || i.kind === 'leaseProjection' || i.kind === 'belief',
  );
  g.selectAll<SVGRectElement, Interval>('rect.tl-interval')
    .data(items, (i) => i.key)
    .join((enter) =>
      enter
        .append('rect')
        .attr(
          'class',
          (i) => `tl-interval tl-nonscaling tl-${i.kind}${i.kind === 'leaseProjection' ? '' : ' tl-mark'}`,
        ),
    )
    .attr('data-id', (i) => i.startId)
    .each(function (i) {
      const lane = ctx.lane(i.lane);
      if (!lane) return;
      const [y0, y1] = ctx.barBand(i);
      const color = ctx.colorOf(i.owner);
      const x = ctx.x0(i.startMs);
      this.setAttribute('x', String(x));
      this.setAttribute('width', String(Math.max(0, ctx.x0(i.endMs) - x)));
      this.setAttribute('y', String(y0));
      this.setAttribute('height', String(y1 - y0));
      this.setAttribute('fill', color);
      if (i.kind === 'lease') {
        this.setAttribute('stroke', '#1d1d1f');
        this.setAttribute('stroke-width', '1');
      } else if (i.kind === 'leaseProjection') {
        this.setAttribute('fill-opacity', '0.45');
        this.setAttribute('stroke', 'none');
      } else {
        // Belief: an outline with a faint tint, visibly "not the real thing".
        this.setAttribute('fill-opacity', '0.12');
        this.setAttribute('stroke', color);
        this.setAttribute('stroke-width', '2.5');
      }
    });
}

/** Applies a zoom to the stretch group: the one write per frame. */
export function positionStretch(g: G, tx: number, k: number): void {
  g.attr('transform', `translate(${tx},0) scale(${k},1)`);
}

/**
 * Bands whose fill is a pattern (pauses, crashes, stale beliefs, violation regions). A pattern
 * would smear under a horizontal scale, so these few rects are repositioned one by one.
 */
export interface Band {
  key: string;
  /** The event that makes it appear: its opening event, or a violation's last proof. */
  id: number;
  kind: 'pause' | 'crash' | 'staleBelief' | 'violation' | 'partition';
  lane: string;
  startMs: number;
  endMs: number;
  /** The interval behind it, for tooltips and focus; null for violation regions. */
  interval: Interval | null;
}

/** Back bands (partitions, pauses, crashes) go under the bars; front bands (stale, violation) over them. */
export function bandsOf(ctx: RenderContext): { back: Band[]; front: Band[] } {
  const back: Band[] = [];
  const front: Band[] = [];
  // A partition shades the whole lane, so it goes first: everything else draws over it.
  for (const i of ctx.model.intervals) {
    if (i.kind === 'partition')
      back.push({
        key: i.key,
        id: i.startId,
        kind: 'partition',
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        interval: i,
      });
  }
  for (const i of ctx.model.intervals) {
    if (i.kind === 'pause' || i.kind === 'crash')
      back.push({
        key: i.key,
        id: i.startId,
        kind: i.kind,
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        interval: i,
      });
    if (i.kind === 'staleBelief')
      front.push({
        key: i.key,
        id: i.startId,
        kind: 'staleBelief',
        lane: i.lane,
        startMs: i.startMs,
        endMs: i.endMs,
        interval: i,
      });
  }
  for (const v of ctx.model.violations) {
    v.regions.forEach((r, n) =>
      front.push({
        key: `${v.key}:${n}`,
        id: Math.max(-1, ...v.eventIds),
        kind: 'violation',
        lane: r.lane,
        startMs: r.startMs,
        endMs: r.endMs,
        interval: null,
      }),
    );
  }
  return { back, front };
}

/** Joins pattern bands by key. */
export function drawBands(ctx: RenderContext, g: G, bands: Band[]): void {
  g.selectAll<SVGRectElement, Band>('rect.tl-band')
    .data(bands, (b) => b.key)
    .join((enter) =>
      enter.append('rect').attr('class', (b) => `tl-band tl-${b.kind}${b.kind === 'violation' ? '' : ' tl-mark'}`),
    )
    .attr('data-id', (b) => b.id)
    .each(function (b) {
      const lane = ctx.lane(b.lane);
      if (!lane) return;
      const bands = laneBands(ctx.layout, lane);
      // Pauses and crashes sit under the belief bar so both stay readable; a violation spans
      // the lane, and only the lane where it is flagged gets the loud hatch.
      const flagged = b.kind === 'violation' && ctx.model.violations.some((v) => v.markerLane === b.lane);
      const [y0, y1] =
        b.kind === 'staleBelief'
          ? bands.main
          : b.kind === 'violation' || b.kind === 'partition'
            ? [bands.top + 2, bands.bottom - 2]
            : [bands.main[1] + 3, bands.bottom - 2];
      this.setAttribute('y', String(y0));
      this.setAttribute('height', String(y1 - y0));
      if (b.kind === 'violation' && !flagged) {
        this.setAttribute('fill', '#D55E00');
        this.setAttribute('fill-opacity', '0.07');
      } else this.setAttribute('fill', `url(#${ctx.prefix}-${b.kind === 'staleBelief' ? 'stale' : b.kind})`);
      const outline =
        b.kind === 'violation' || b.kind === 'staleBelief' || b.kind === 'partition'
          ? '#D55E00'
          : b.kind === 'crash'
            ? '#1d1d1f'
            : '#8a8d94';
      this.setAttribute('stroke', outline);
      this.setAttribute('stroke-width', b.kind === 'violation' || b.kind === 'partition' ? '2' : '1');
      if (b.kind === 'violation') this.setAttribute('stroke-dasharray', '6 3');
      // A cut lane: a zig-zag-like dash along the edges, a faint cross-hatch inside.
      if (b.kind === 'partition') this.setAttribute('stroke-dasharray', '2 4');
    });
}

/** Moves pattern bands for the current zoom. */
export function positionBands(g: G, x: XOf): void {
  g.selectAll<SVGRectElement, Band>('rect.tl-band').each(function (b) {
    const x0 = x(b.startMs);
    this.setAttribute('x', String(x0));
    this.setAttribute('width', String(Math.max(1, x(b.endMs) - x0)));
  });
}

/** A short human name for an interval, used by tooltips and accessible names. */
export function describeInterval(
  i: Interval,
  labelOf: (id: string) => string,
  cursorMs: number,
  lockServer: string,
): string {
  const until =
    i.endMs > cursorMs
      ? `since ${formatMs(i.startMs)}, still going`
      : `${formatMs(i.startMs)} to ${formatMs(i.endMs)}${i.endReason ? ` (${i.endReason})` : ''}`;
  switch (i.kind) {
    case 'lease':
      return `${labelOf(i.lane)} holds “${i.lockKey}” for ${labelOf(i.owner ?? '')}: ${until}`;
    case 'leaseProjection':
      return `${lockServer}'s lease for ${labelOf(i.lane)}: ${until}`;
    case 'belief':
      return `${labelOf(i.lane)} believes it holds “${i.lockKey}”: ${until}`;
    case 'staleBelief':
      return `${labelOf(i.lane)} believes it holds “${i.lockKey}” but ${lockServer === 'Redis' ? 'no Redis node has its lease' : `${lockServer} has no lease for it`}: ${until}`;
    case 'pause':
      return `${labelOf(i.lane)} is paused: ${until}`;
    case 'crash':
      return `${labelOf(i.lane)} is down: ${until}`;
    case 'partition':
      return `${labelOf(i.lane)} is ${i.detail ?? 'cut off'} (network partition): ${until}`;
  }
}
