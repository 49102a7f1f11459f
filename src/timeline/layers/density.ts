import type { Selection } from 'd3-selection';
import type { DensityBin } from '../modelTypes';
import { okabeIto } from '../palette';
import { laneBands } from '../scales';
import type { RenderContext } from './context';

type G = Selection<SVGGElement, unknown, null, undefined>;

interface Cell {
  key: string;
  lane: string;
  bin: DensityBin;
  /** 0..1: this slice's count against the busiest slice of the run. */
  share: number;
  row: 'attempts' | 'refusals';
}

/**
 * A summary lane's density strips: lock attempts along the top of the lane, refusals along its
 * foot, darker where more fell in one slice of the run. Drawn in the stretch group, so zooming
 * moves them with the one transform the bars use. Each strip says in words what it shows (its
 * title); the lane's label says who holds the lock at the playhead.
 */
export function drawDensity(ctx: RenderContext, g: G): void {
  const cells: Cell[] = ctx.model.groups.flatMap((group) =>
    group.density.bins.flatMap((bin, n) => [
      ...(bin.attempts > 0
        ? [
            {
              key: `a${n}:${group.id}`,
              lane: group.id,
              bin,
              share: bin.attempts / group.density.maxAttempts,
              row: 'attempts' as const,
            },
          ]
        : []),
      ...(bin.refusals > 0
        ? [
            {
              key: `r${n}:${group.id}`,
              lane: group.id,
              bin,
              share: bin.refusals / group.density.maxRefusals,
              row: 'refusals' as const,
            },
          ]
        : []),
    ]),
  );
  g.selectAll<SVGRectElement, Cell>('rect.tl-density')
    .data(cells, (c) => c.key)
    .join((enter) =>
      enter
        .append('rect')
        .attr('class', (c) => `tl-density tl-density-${c.row}`)
        .attr('aria-hidden', 'true'),
    )
    .attr('data-id', (c) => c.bin.firstId)
    .each(function (c) {
      const lane = ctx.lane(c.lane);
      if (!lane) return;
      const bands = laneBands(ctx.layout, lane);
      const [y0, y1] = c.row === 'attempts' ? bands.projection : bands.ticks;
      const x = ctx.x0(c.bin.startMs);
      this.setAttribute('x', String(x));
      this.setAttribute('width', String(Math.max(0, ctx.x0(c.bin.endMs) - x)));
      this.setAttribute('y', String(y0));
      this.setAttribute('height', String(y1 - y0));
      this.setAttribute('fill', c.row === 'attempts' ? okabeIto.blue : okabeIto.vermillion);
      // Never fully transparent: a slice with one attempt must still show.
      this.setAttribute('fill-opacity', String(0.15 + 0.85 * c.share));
      this.setAttribute('stroke', 'none');
    });
}
