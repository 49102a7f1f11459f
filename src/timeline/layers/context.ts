import type { ScaleLinear } from 'd3-scale';
import { subRow } from '../keyRows';
import type { Interval, Lane, TimelineModel } from '../modelTypes';
import { ownerColor } from '../palette';
import { laneBands, type Layout } from '../scales';

/** What every layer needs to draw: the model, the geometry and a few lookups. */
export interface RenderContext {
  model: TimelineModel;
  layout: Layout;
  /** The un-zoomed time scale; zooming is applied on top of it. */
  x0: ScaleLinear<number, number>;
  /** Prefix for this timeline's pattern and marker ids. */
  prefix: string;
  lane(id: string): Lane | undefined;
  labelOf(id: string): string;
  colorOf(owner: string | null): string;
  /** Where a lease, projection or belief bar sits vertically (a lease on its key's row when the lane has several). */
  barBand(interval: Interval): [number, number];
}

/** On a lane with several keys the rows use the whole lane but its foot (where expiry ticks go). */
const KEY_ROWS_TOP_PX = 6;
const KEY_ROWS_BOTTOM_PX = 46;

/** The rows of a lane that leases several keys, or null: [top, bottom] of row `index`. */
export function keyRowBand(layout: Layout, lane: Lane, index: number, count: number): [number, number] {
  const top = laneBands(layout, lane).top;
  return subRow([top + KEY_ROWS_TOP_PX, top + KEY_ROWS_BOTTOM_PX], index, count);
}

/** Maps zoomed time to plot x. */
export type XOf = (ms: number) => number;

/** Builds the lookups once per model so layers do not recompute them per mark. */
export function makeContext(
  model: TimelineModel,
  layout: Layout,
  x0: ScaleLinear<number, number>,
  prefix: string,
): RenderContext {
  // Folded clients keep the colour and name they have unfolded, so a bar reads the same either way.
  const members = model.groups.flatMap((g) => g.members);
  const groupIds = new Set(model.groups.map((g) => g.id));
  const owners = [
    ...members,
    ...model.lanes.filter((l) => (l.role === 'client' || l.role === 'unknown') && !groupIds.has(l.id)),
  ];
  const clientOrder = new Map(owners.map((l, i) => [l.id, i]));
  const memberLabel = new Map(members.map((m) => [m.id, m.label]));
  return {
    model,
    layout,
    x0,
    prefix,
    lane: (id) => model.laneById.get(id),
    labelOf: (id) => model.laneById.get(id)?.label ?? memberLabel.get(id) ?? id,
    colorOf: (owner) => (owner === null ? '#777' : ownerColor(clientOrder.get(owner) ?? model.lanes.length)),
    barBand: (i) => {
      const lane = model.laneById.get(i.lane);
      if (!lane) return [0, 0];
      const bands = laneBands(layout, lane);
      if (i.kind === 'leaseProjection') return bands.projection;
      const keys = i.kind === 'lease' && i.lockKey !== null ? model.leaseKeys.get(i.lane) : undefined;
      return keys ? keyRowBand(layout, lane, keys.indexOf(i.lockKey!), keys.length) : bands.main;
    },
  };
}
