import { EXPLORE_MAX_EVENTS, explore, type ExploreResult, type ExplorerOptions } from '../../check/explorer';
import {
  FAULT_KINDS,
  kindApplies,
  sampleFault,
  type FaultKind,
  type FaultSpace,
  type LossLink,
} from '../../check/faults';
import type { WorldSpec } from '../../actors/world';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { checkActions } from '../schema/actionSchema';
import type { InvariantName, Scenario } from '../schema/schema';
import { Simulation } from './simulation';

export interface ExploreScenarioOptions {
  invariant: InvariantName;
  /** Seeds the explorer's own choices (default 1): the same seed gives the same answer. */
  explorerSeed?: number;
  /** Runs to try, the scenario as written included (default 200). */
  runs?: number;
  /** Faults per schedule (default 3). */
  maxFaults?: number;
  /** The kinds of fault to try (default: every kind that applies to the scenario). */
  kinds?: readonly FaultKind[];
}

const DEFAULT_RUNS = 200;
const DEFAULT_MAX_FAULTS = 3;

/**
 * The explorer set up for one scenario: its fault space (the kinds that apply, and whom they
 * hit) and a runner. Building it runs the scenario once, fault-free, to learn how long its
 * action lasts: faults land within that window.
 */
export function scenarioExplorer(
  scenario: Scenario,
  options: ExploreScenarioOptions,
  scripts?: ScriptEngine,
): ExplorerOptions {
  // Asking for the invariant makes the checkers report it even where it would not apply by default.
  const judged: Scenario = { ...scenario, expect: [{ invariant: options.invariant, outcome: 'violated' }] };
  const baseline = new Simulation(judged, { maxEvents: EXPLORE_MAX_EVENTS }, scripts).run();
  return {
    invariant: options.invariant,
    space: faultSpace(scenario, baseline.spec, {
      windowMs: Math.min(scenario.horizon, lastEventAt(baseline)),
      maxFaults: options.maxFaults ?? DEFAULT_MAX_FAULTS,
      ...(options.kinds ? { kinds: options.kinds } : {}),
    }),
    baseSeed: baseline.seed,
    explorerSeed: options.explorerSeed ?? 1,
    run: (seed, actions) => {
      const simulation = new Simulation(judged, { seed, actions, maxEvents: EXPLORE_MAX_EVENTS }, scripts).run();
      const verdict = simulation.verdictOn(options.invariant);
      // A run a budget stopped was judged only on what it reached: the search counts those apart.
      const capped =
        simulation.ended === 'event-cap' || simulation.ended === 'script-cap'
          ? simulation.verdictOn('run-completes')
          : null;
      simulation.release();
      return [...(verdict ? [verdict] : []), ...(capped ? [capped] : [])];
    },
  };
}

/**
 * "Find the bug for me": searches seeds and fault schedules of `scenario` for a run that breaks
 * `invariant`, and returns the run's seed and a minimal list of learner actions that break it
 * (replay them with `new Simulation(scenario, { seed, actions })`).
 */
export function exploreScenario(
  scenario: Scenario,
  options: ExploreScenarioOptions,
  scripts?: ScriptEngine,
): ExploreResult {
  return explore({ ...scenarioExplorer(scenario, options, scripts), runs: options.runs ?? DEFAULT_RUNS });
}

/**
 * The faults that apply to a scenario: pauses, crashes, restarts and clock jumps of its clients,
 * Redis nodes and lock services; partitions when there are two of those; failovers where there
 * is a replica (or Sentinel) to fail over to; message loss on the links clients use. A kind is
 * kept only if a sample of it passes the same checks as a learner's actions.
 */
export function faultSpace(
  scenario: Scenario,
  spec: WorldSpec,
  options: { windowMs: number; maxFaults: number; kinds?: readonly FaultKind[] },
): FaultSpace {
  const servers = [
    ...spec.redisNodes.map((n) => n.id),
    ...[spec.services?.lease?.id, spec.services?.db?.id].filter((id): id is string => id !== undefined),
  ];
  const clients = spec.clients.map((c) => c.id);
  const sentinelGroup = spec.topology?.sentinels?.name;
  const primaries = [...new Set(scenario.redis.nodes.flatMap((n) => (n.replicaOf === undefined ? [] : [n.replicaOf])))];
  const space: FaultSpace = {
    kinds: [],
    processes: [...clients, ...servers],
    failoverTargets: sentinelGroup !== undefined ? [sentinelGroup] : primaries,
    links: lossLinks(scenario, spec, clients, servers),
    windowMs: options.windowMs,
    maxFaults: options.maxFaults,
  };
  const wanted = options.kinds ?? FAULT_KINDS;
  const valid = (kind: FaultKind) => {
    let ok = true;
    checkActions(scenario, sampleFault(kind, space), () => (ok = false));
    return ok;
  };
  return {
    ...space,
    kinds: FAULT_KINDS.filter((kind) => wanted.includes(kind) && kindApplies(kind, space) && valid(kind)),
  };
}

/** Both directions between each client and each server, and along each replication link. */
function lossLinks(
  scenario: Scenario,
  spec: WorldSpec,
  clients: readonly string[],
  servers: readonly string[],
): LossLink[] {
  const pairs: [string, string][] = clients.flatMap((c) =>
    servers.flatMap((s): [string, string][] => [
      [c, s],
      [s, c],
    ]),
  );
  for (const node of scenario.redis.nodes) {
    if (node.replicaOf !== undefined) pairs.push([node.replicaOf, node.id], [node.id, node.replicaOf]);
  }
  return pairs.map(([from, to]) => ({ from, to, restoreLoss: lossOn(spec, from, to) }));
}

/** The loss a link has as configured (later per-link entries win, as in the network). */
function lossOn(spec: WorldSpec, from: string, to: string): number {
  let loss = spec.network.defaults.loss;
  for (const link of spec.network.links)
    if (link.from === from && link.to === to && link.faults.loss !== undefined) loss = link.faults.loss;
  return loss;
}

/** When the fault-free run last did something (its run.end can sit far later, at a lease's expiry). */
function lastEventAt(simulation: Simulation): number {
  const events = simulation.sim.trace.toArray();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind.startsWith('lock.') || e.kind.startsWith('resource.')) return e.at;
  }
  return simulation.sim.now;
}
