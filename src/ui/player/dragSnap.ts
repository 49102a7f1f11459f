import { snapMs } from '../../scenario/running/storyEdits';
import type { TraceEvent } from '../../sim/traceEvents';
import { describeEvent, type LabelOf } from '../../timeline/describeEvent';
import { isStepEvent } from './runModel';
import type { PlayerMark } from './storyMarks';

/** How near (on screen) a dragged mark must come to an event to land on it, as a video editor's snapping does. */
export const SNAP_PULL_PX = 8;

/** A time a dragged mark can land on exactly, and what happens then (said while dragging). */
export interface SnapTarget {
  atMs: number;
  what: string;
}

/** Where a drag lands: an event's time when one is within reach, else the nearest grid point. */
export interface DragLanding {
  atMs: number;
  on: SnapTarget | null;
}

/**
 * Where a mark dragged to `rawMs` lands: on the nearest target within SNAP_PULL_PX of it on
 * screen (so the reach in time grows as the learner zooms out), else on the 100 ms grid. A span
 * dragged whole (`lengthMs` given) lands by whichever edge comes nearer to a target.
 * @example landing(4_996, [{ atMs: 5_003, what: 'B acquired the lock' }], 10) // { atMs: 5003, on: … }
 */
export function landing(rawMs: number, targets: readonly SnapTarget[], msPerPx: number, lengthMs = 0): DragLanding {
  const reachMs = SNAP_PULL_PX * msPerPx;
  let best: { on: SnapTarget; distance: number; atMs: number } | null = null;
  for (const t of targets) {
    for (const edgeMs of lengthMs > 0 ? [0, lengthMs] : [0]) {
      const distance = Math.abs(t.atMs - (rawMs + edgeMs));
      if (distance <= reachMs && (best === null || distance < best.distance))
        best = { on: t, distance, atMs: Math.max(0, t.atMs - edgeMs) };
    }
  }
  return best ? { atMs: best.atMs, on: best.on } : { atMs: snapMs(rawMs), on: null };
}

/** Kinds too frequent or too internal to land on: every Redis command, the script's own steps, the run's end. */
const NOT_TARGETS = new Set<string>(['action.apply', 'redis.command', 'run.end']);

/**
 * What a dragged mark can land on: the steps of the run shown when the drag began on the mark's
 * own lane (A acquired the lock, B's lease ended), and every other mark's start and end. The
 * mark's own start and end are left out: the run is the one before the drag, where the mark's
 * events sit at its old place, and the grid already brings it back there.
 */
export function snapTargets(
  events: readonly TraceEvent[],
  marks: readonly PlayerMark[],
  dragged: PlayerMark,
  labelOf: LabelOf,
): SnapTarget[] {
  const own = new Set([dragged.atMs, dragged.atMs + (dragged.lengthMs ?? 0)]);
  const onLane = events
    .filter((e) => e.actor === dragged.laneId && isStepEvent(e) && !NOT_TARGETS.has(e.kind) && !own.has(e.at))
    .map((e) => ({ atMs: e.at, what: describeEvent(e, labelOf).replace(/\.$/, '') }));
  const others = marks
    .filter((m) => m.key !== dragged.key)
    .flatMap((m) => [
      { atMs: m.atMs, what: m.name },
      ...(m.lengthMs === null ? [] : [{ atMs: m.atMs + m.lengthMs, what: `end of ${m.name}` }]),
    ]);
  return [...onLane, ...others];
}
