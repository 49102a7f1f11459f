import type { LatencyDist, LinkFaults } from '../../net/faults';
import type { Action, UntimedAction } from '../../actors/action';
import type { NetworkInput, Scenario, ScriptAction } from './schema';

// A scenario's script and network settings as the actions and faults the world takes: the
// schema's notation (`for`, `by`, `latency: 5`) turned into the core's (`forMs`, `byMs`, a
// distribution). The player and the claims check read scripts through here too.

/** A latency as the scenario wrote it, as the network's distribution. */
export function latencyDist(latency: NonNullable<NetworkInput['latency']>): LatencyDist {
  if (typeof latency === 'number') return { dist: 'fixed', ms: latency };
  if (latency.dist === 'long-tail') {
    return { dist: 'long-tail', minMs: latency.min, medianMs: latency.median ?? latency.min * 2, maxMs: latency.max };
  }
  return { dist: 'uniform', minMs: latency.min, maxMs: latency.max };
}

/** A network distribution in the scenario's latency notation (latencyDist's inverse). */
function latencyInput(dist: LatencyDist): NonNullable<NetworkInput['latency']> {
  if (dist.dist === 'fixed') return dist.ms;
  if (dist.dist === 'uniform') return { dist: 'uniform', min: dist.minMs, max: dist.maxMs };
  return { dist: 'long-tail', min: dist.minMs, median: dist.medianMs, max: dist.maxMs };
}

/** The fault knobs given (only those), as network options. */
export function faultsOf(f: {
  latency?: NetworkInput['latency'];
  loss?: number;
  duplicate?: number;
  reorder?: number;
}): Partial<LinkFaults> {
  return {
    ...(f.latency === undefined ? {} : { latency: latencyDist(f.latency) }),
    ...(f.loss === undefined ? {} : { loss: f.loss }),
    ...(f.duplicate === undefined ? {} : { duplicate: f.duplicate }),
    ...(f.reorder === undefined ? {} : { reorder: f.reorder }),
  };
}

/** Partitions the scenario puts in place from the start, as actions at time 0. */
export function initialActions(scenario: Scenario): UntimedAction[] {
  return scenario.network.partitions.map((p) => ({ do: 'partition', groups: p.groups, oneWay: p.oneWay }));
}

/** A script entry as the action it stands for (its moment aside). */
export function toAction(entry: ScriptAction): UntimedAction {
  switch (entry.do) {
    case 'pause':
      return entry.for === undefined
        ? { do: 'pause', target: entry.target }
        : { do: 'pause', target: entry.target, forMs: entry.for };
    case 'clock-jump':
      return { do: 'clock-jump', target: entry.target, byMs: entry.by };
    case 'partition':
      return { do: 'partition', groups: entry.groups, oneWay: entry.oneWay };
    case 'heal':
      return { do: 'heal' };
    case 'command':
      return { do: 'command', target: entry.target, argv: entry.argv };
    case 'network': {
      const { at: _at, do: _do, from, to, ...f } = entry;
      const faults = faultsOf(f);
      return {
        do: 'network',
        ...(from === undefined ? {} : { from }),
        ...(to === undefined ? {} : { to }),
        ...faults,
      } as UntimedAction;
    }
    default:
      return { do: entry.do, target: entry.target };
  }
}

/** An action as the script entry that stands for it (toAction's inverse, moment included). */
export function toScriptEntry(action: Action): ScriptAction {
  switch (action.do) {
    case 'pause': {
      const { forMs, ...rest } = action;
      return forMs === undefined ? rest : { ...rest, for: forMs };
    }
    case 'clock-jump':
      return { at: action.at, do: 'clock-jump', target: action.target, by: action.byMs };
    case 'partition':
      return { at: action.at, do: 'partition', groups: action.groups, oneWay: action.oneWay ?? false };
    case 'network': {
      const { latency, ...rest } = action;
      return latency === undefined ? rest : { ...rest, latency: latencyInput(latency) };
    }
    default:
      return action;
  }
}

/**
 * The scenario with `actions` (a learner's, `--actions file.json`) joined to the end of its
 * script. The simulator schedules a script's steps before the learner's actions, so at one
 * moment a step comes first: the merged script keeps that order (a stable sort by moment), and
 * runs as the scenario with those actions does.
 */
export function withActions(scenario: Scenario, actions: readonly Action[]): Scenario {
  if (actions.length === 0) return scenario;
  const script = [...scenario.script, ...actions.map(toScriptEntry)].sort((a, b) => a.at - b.at);
  return { ...scenario, script };
}
