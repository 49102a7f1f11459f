import type { Selection } from 'd3-selection';
import type { PointMark } from '../modelTypes';
import { inkMuted, okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** Ticks drawn as vertical lines: they survive a horizontal scale, so they live in the stretch group. */
export function tickMarksOf(ctx: RenderContext): PointMark[] {
  return ctx.model.points.filter((p) => p.kind === 'state' || p.kind === 'expiry' || p.kind === 'replicate');
}

/**
 * State changes are short ticks along a lane's foot; a TTL expiry is a dashed vermillion line
 * across the whole Redis lane, the moment the lock stopped protecting anyone. A replica applying
 * the replication stream gets a green tick: the distance from the primary's write is the lag.
 */
export function drawTicks(ctx: RenderContext, g: G, ticks: PointMark[]): void {
  g.selectAll<SVGLineElement, PointMark>('line.tl-tick')
    .data(ticks, (p) => p.id)
    .join((enter) => enter.append('line').attr('class', (p) => `tl-tick tl-nonscaling tl-${p.kind}`))
    .each(function (p) {
      const lane = ctx.lane(p.lane);
      if (!lane) return;
      const bands = laneBands(ctx.layout, lane);
      const x = String(ctx.x0(p.at));
      const [y0, y1] =
        p.kind === 'expiry'
          ? [bands.top + 3, bands.bottom - 3]
          : p.kind === 'replicate'
            ? [bands.main[0] - 4, bands.main[0] + 4]
            : bands.ticks;
      this.setAttribute('x1', x);
      this.setAttribute('x2', x);
      this.setAttribute('y1', String(y0));
      this.setAttribute('y2', String(y1));
      this.setAttribute(
        'stroke',
        p.kind === 'expiry' ? okabeIto.vermillion : p.kind === 'replicate' ? okabeIto.bluishGreen : inkMuted,
      );
      this.setAttribute('stroke-width', p.kind === 'expiry' ? '2' : '1');
      if (p.kind === 'expiry') this.setAttribute('stroke-dasharray', '4 3');
    });
}
