import type { ScaleLinear } from 'd3-scale';
import type { Lane, TimelineModel } from '../modelTypes';
import { ownerColor } from '../palette';
import type { Layout } from '../scales';

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
}

/** Maps zoomed time to plot x. */
export type XOf = (ms: number) => number;

/** Builds the lookups once per model so layers do not recompute them per mark. */
export function makeContext(model: TimelineModel, layout: Layout, x0: ScaleLinear<number, number>, prefix: string): RenderContext {
  const clientOrder = new Map(model.lanes.filter((l) => l.role === 'client' || l.role === 'unknown').map((l, i) => [l.id, i]));
  return {
    model,
    layout,
    x0,
    prefix,
    lane: (id) => model.laneById.get(id),
    labelOf: (id) => model.laneById.get(id)?.label ?? id,
    colorOf: (owner) => (owner === null ? '#777' : ownerColor(clientOrder.get(owner) ?? model.lanes.length)),
  };
}
