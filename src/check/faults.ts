import type { ActionOf } from '../actors/action';
import type { Prng } from '../sim/prng';
import { simTime, type SimTimeMs } from '../sim/time';

/** The kinds of fault the explorer injects. */
export const FAULT_KINDS = [
  'pause',
  'crash',
  'restart',
  'partition',
  'clock-jump',
  'failover',
  'message-loss',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One action of a fault: an `Action` a learner could take (what the player and `npm run sim
 * --actions` replay), with every choice the explorer makes filled in: how long a pause lasts,
 * which link loses messages and how much.
 */
export type FaultAction =
  | ActionOf<'crash' | 'restart' | 'partition' | 'heal' | 'clock-jump' | 'failover'>
  | (ActionOf<'pause'> & { forMs: number })
  | (ActionOf<'network'> & { from: string; to: string; loss: number });

/**
 * One fault as the shrinker sees it: the action that breaks something, then the one that
 * undoes it later where there is one (a crash's restart, a partition's heal, a lossy link's
 * old loss). Shrinking drops whole faults, so a restart never outlives its crash.
 */
export interface Fault {
  kind: FaultKind;
  actions: FaultAction[];
}

/** A directed network link, and the loss it goes back to after a loss window. */
export interface LossLink {
  from: string;
  to: string;
  restoreLoss: number;
}

/**
 * What the explorer may do to one scenario: the fault kinds that apply to it and the actors
 * each kind can hit. `src/scenario/running/explore.ts` derives it from a scenario.
 */
export interface FaultSpace {
  kinds: readonly FaultKind[];
  /** Processes that can be paused, crashed, restarted, or have their clock jumped. */
  processes: readonly string[];
  /** What a failover names: a Sentinel group, or primaries that have replicas. */
  failoverTargets: readonly string[];
  /** Links a message-loss window can hit. */
  links: readonly LossLink[];
  /** Faults start in [0, windowMs): where the scenario's action is. */
  windowMs: number;
  /** At most this many faults per schedule. */
  maxFaults: number;
}

/** The draws a fault needs: a seeded stream in a search, fixed answers for a sample. */
type Draws = Pick<Prng, 'int' | 'chance'>;

/** How long a "restart" keeps the process down: long enough to lose its memory, no longer. */
export const QUICK_RESTART_MS = 100;

/** A random list of 1..maxFaults faults (every draw from `random`, so one seed gives one list). */
export function randomFaults(random: Prng, space: FaultSpace): Fault[] {
  const window = Math.max(1000, space.windowMs);
  const pick = <T>(xs: readonly T[]): T => xs[random.int(0, xs.length - 1)]!;
  const count = random.int(1, space.maxFaults);
  const faults: Fault[] = [];
  for (let i = 0; i < count; i++) {
    const at = simTime(roundTo(random.int(0, window - 1), 100));
    const later = simTime(at + roundTo(random.int(100, window), 100));
    const kind = pick(space.kinds);
    faults.push({ kind, actions: faultActions(kind, at, later, random, space, pick) });
  }
  // In the order they strike, as a learner reads them.
  return faults.sort((a, b) => a.actions[0]!.at - b.actions[0]!.at);
}

function faultActions(
  kind: FaultKind,
  at: SimTimeMs,
  later: SimTimeMs,
  random: Draws,
  space: FaultSpace,
  pick: <T>(xs: readonly T[]) => T,
): FaultAction[] {
  const window = Math.max(1000, space.windowMs);
  switch (kind) {
    case 'pause':
      return [{ at, do: 'pause', target: pick(space.processes), forMs: roundTo(random.int(500, 2 * window), 500) }];
    case 'crash': {
      const target = pick(space.processes);
      return [
        { at, do: 'crash', target },
        { at: later, do: 'restart', target },
      ];
    }
    case 'restart': {
      const target = pick(space.processes);
      return [
        { at, do: 'crash', target },
        { at: simTime(at + QUICK_RESTART_MS), do: 'restart', target },
      ];
    }
    case 'partition': {
      const target = pick(space.processes);
      return [
        { at, do: 'partition', groups: [[target], space.processes.filter((t) => t !== target)] },
        { at: later, do: 'heal' },
      ];
    }
    case 'clock-jump':
      return [
        {
          at,
          do: 'clock-jump',
          target: pick(space.processes),
          byMs: (random.chance(0.5) ? 1 : -1) * roundTo(random.int(1000, 30_000), 1000),
        },
      ];
    case 'failover':
      return [{ at, do: 'failover', target: pick(space.failoverTargets) }];
    case 'message-loss': {
      const link = pick(space.links);
      return [
        { at, do: 'network', from: link.from, to: link.to, loss: 1 },
        { at: later, do: 'network', from: link.from, to: link.to, loss: link.restoreLoss },
      ];
    }
  }
}

/** A fault list as the learner actions that replay it, in time order (ties keep the list's order). */
export function faultActionsInOrder(faults: readonly Fault[]): FaultAction[] {
  return faults.flatMap((f) => f.actions).sort((a, b) => a.at - b.at);
}

/** Whether the space can produce a fault of `kind` at all (targets to hit exist). */
export function kindApplies(
  kind: FaultKind,
  space: Pick<FaultSpace, 'processes' | 'failoverTargets' | 'links'>,
): boolean {
  switch (kind) {
    case 'partition':
      return space.processes.length >= 2;
    case 'failover':
      return space.failoverTargets.length > 0;
    case 'message-loss':
      return space.links.length > 0;
    default:
      return space.processes.length > 0;
  }
}

/** A sample fault of `kind` on the first target, to check a scenario accepts such actions. */
export function sampleFault(kind: FaultKind, space: FaultSpace): FaultAction[] {
  const first = <T>(xs: readonly T[]): T => xs[0]!;
  return faultActions(kind, simTime(0), simTime(1000), { int: (min) => min, chance: () => true }, space, first);
}

export function roundTo(ms: number, step: number): number {
  return Math.round(ms / step) * step;
}
