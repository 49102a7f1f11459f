import { simTime, type SimTimeMs } from '../sim/time';
import { choose, combinationAt } from './combinations';
import { QUICK_RESTART_MS, type Fault, type FaultAction, type FaultKind, type FaultSpace } from './faults';

/**
 * The bounds of an exhaustive search: every schedule of at most `maxFaults` faults, each one a
 * fault of a kind in `kinds`, striking at a grid point in [0, horizonMs), lasting one of the
 * listed lengths, on any target it applies to. A search that finds nothing claims exactly this
 * and no more: "no break exists within these bounds".
 */
export interface ExhaustiveBounds {
  /** K: faults per schedule, at most. */
  maxFaults: number;
  /** Faults strike at 0, gridMs, 2 × gridMs, ... */
  gridMs: number;
  /** ... up to (not including) this time. */
  horizonMs: number;
  kinds: readonly FaultKind[];
  /** How long a pause lasts. */
  pauseMs: readonly number[];
  /** How long a crash stays down, a partition stays up, a link loses every message. */
  outageMs: readonly number[];
  /** By how much a clock jumps (negative: backwards). */
  jumpMs: readonly number[];
}

export const DEFAULT_GRID_MS = 100;
export const DEFAULT_PAUSES_MS = [500, 1000, 2000, 5000, 10_000, 20_000] as const;
export const DEFAULT_OUTAGES_MS = [1000, 5000] as const;
export const DEFAULT_JUMPS_MS = [10_000, -10_000] as const;

/** The bounds a search uses unless told otherwise: the space's kinds and window, K = maxFaults. */
export function defaultBounds(space: FaultSpace, maxFaults = 1): ExhaustiveBounds {
  return {
    maxFaults,
    gridMs: DEFAULT_GRID_MS,
    // The window rounded up to a whole step: the same grid points, said plainly.
    horizonMs: Math.max(1, Math.ceil(space.windowMs / DEFAULT_GRID_MS)) * DEFAULT_GRID_MS,
    kinds: space.kinds,
    pauseMs: DEFAULT_PAUSES_MS,
    outageMs: DEFAULT_OUTAGES_MS,
    jumpMs: DEFAULT_JUMPS_MS,
  };
}

/** Where faults may strike: `horizonMs / gridMs` grid points, rounded up. */
export function gridPoints(bounds: Pick<ExhaustiveBounds, 'gridMs' | 'horizonMs'>): number {
  return Math.ceil(bounds.horizonMs / bounds.gridMs);
}

/**
 * Every single fault within the bounds, in the order the search tries them: by time, then by
 * kind (in `bounds.kinds` order), target and length. A schedule is a set of these.
 */
export function faultChoices(space: FaultSpace, bounds: ExhaustiveBounds): Fault[] {
  const choices: Fault[] = [];
  const points = gridPoints(bounds);
  for (let p = 0; p < points; p++) {
    const at = simTime(p * bounds.gridMs);
    for (const kind of bounds.kinds)
      if (space.kinds.includes(kind))
        for (const actions of faultsOfKind(kind, at, space, bounds)) choices.push({ kind, actions });
  }
  return choices;
}

function faultsOfKind(kind: FaultKind, at: SimTimeMs, space: FaultSpace, bounds: ExhaustiveBounds): FaultAction[][] {
  const later = (ms: number) => simTime(at + ms);
  switch (kind) {
    case 'pause':
      return space.processes.flatMap((target) =>
        bounds.pauseMs.map((forMs): FaultAction[] => [{ at, do: 'pause', target, forMs }]),
      );
    case 'crash':
      return space.processes.flatMap((target) =>
        bounds.outageMs.map((ms): FaultAction[] => [
          { at, do: 'crash', target },
          { at: later(ms), do: 'restart', target },
        ]),
      );
    case 'restart':
      return space.processes.map((target): FaultAction[] => [
        { at, do: 'crash', target },
        { at: later(QUICK_RESTART_MS), do: 'restart', target },
      ]);
    case 'partition':
      if (space.processes.length < 2) return [];
      return space.processes.flatMap((target) =>
        bounds.outageMs.map((ms): FaultAction[] => [
          { at, do: 'partition', groups: [[target], space.processes.filter((t) => t !== target)] },
          { at: later(ms), do: 'heal' },
        ]),
      );
    case 'clock-jump':
      return space.processes.flatMap((target) =>
        bounds.jumpMs.map((byMs): FaultAction[] => [{ at, do: 'clock-jump', target, byMs }]),
      );
    case 'failover':
      return space.failoverTargets.map((target): FaultAction[] => [{ at, do: 'failover', target }]);
    case 'message-loss':
      return space.links.flatMap((link) =>
        bounds.outageMs.map((ms): FaultAction[] => [
          { at, do: 'network', from: link.from, to: link.to, loss: 1 },
          { at: later(ms), do: 'network', from: link.from, to: link.to, loss: link.restoreLoss },
        ]),
      );
  }
}

/** Schedules within the bounds: the scenario as written (index 0), then every 1..K-subset of `choices`. */
export function scheduleCount(choices: number, maxFaults: number): number {
  let total = 1;
  for (let k = 1; k <= maxFaults; k++) total += choose(choices, k);
  return total;
}

/**
 * The indices of the faults in schedule `index`: none for index 0, then every single fault in
 * time order, then every pair (by the first fault's time, then the second's), then every triple.
 * Breadth-first by number of faults, so the first break found has the fewest faults there are.
 */
export function scheduleFaultIndices(choices: number, maxFaults: number, index: number): number[] {
  if (index === 0) return [];
  let rest = index - 1;
  for (let k = 1; k <= maxFaults; k++) {
    const size = choose(choices, k);
    if (rest < size) return combinationAt(choices, k, rest);
    rest -= size;
  }
  throw new RangeError(
    `No schedule ${index}: there are ${scheduleCount(choices, maxFaults)} of at most ${maxFaults} faults over ${choices} choices.`,
  );
}

/** The faults of schedule `index` (see scheduleFaultIndices). */
export function exhaustiveScheduleAt(choices: readonly Fault[], maxFaults: number, index: number): Fault[] {
  return scheduleFaultIndices(choices.length, maxFaults, index).map((i) => choices[i]!);
}
