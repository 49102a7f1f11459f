import { explore, type ExploreResult, type FaultKind } from '../check/explorer';
import type { ScriptEngine } from '../redis/scriptEngine';
import type { InvariantName, Scenario } from './schema';
import { Simulation, type LearnerAction } from './simulation';

export interface ExploreScenarioOptions {
  invariant: InvariantName;
  /** Seeds the explorer's own choices (default 1): the same seed gives the same answer. */
  explorerSeed?: number;
  /** Random schedules to try (default 200). */
  runs?: number;
  /** Faults per schedule (default 3). */
  maxFaults?: number;
  kinds?: readonly FaultKind[];
}

/** A cap per explored run, so a schedule that wedges the world costs little. */
const EXPLORE_MAX_EVENTS = 50_000;

/**
 * "Find the bug for me": searches seeds and fault schedules of `scenario` for a run that breaks
 * `invariant`, and returns the run's seed and a minimal list of learner actions that break it
 * (replay them with `new Simulation(scenario, { seed, actions })`). Faults hit the clients,
 * Redis nodes and lock services, within the time the scenario takes to run without faults.
 */
export function exploreScenario(scenario: Scenario, options: ExploreScenarioOptions, scripts?: ScriptEngine): ExploreResult {
  // Asking for the invariant makes the checkers report it even where it would not apply by default.
  const judged: Scenario = { ...scenario, expect: [{ invariant: options.invariant, outcome: 'violated' }] };
  const baseline = new Simulation(judged, { maxEvents: EXPLORE_MAX_EVENTS }, scripts).run();
  const spec = baseline.spec;
  const targets = [
    ...spec.clients.map((c) => c.id),
    ...spec.redisNodes.map((n) => n.id),
    ...[spec.services?.lease?.id, spec.services?.db?.id].filter((id): id is string => id !== undefined),
  ];
  return explore({
    invariant: options.invariant,
    targets,
    windowMs: Math.min(scenario.horizon, lastEventAt(baseline)),
    baseSeed: baseline.seed,
    ...(options.explorerSeed === undefined ? {} : { explorerSeed: options.explorerSeed }),
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    ...(options.maxFaults === undefined ? {} : { maxFaults: options.maxFaults }),
    ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
    run: (seed, actions) => new Simulation(judged, { seed, actions: actions as readonly LearnerAction[], maxEvents: EXPLORE_MAX_EVENTS }, scripts).run().verdicts(),
  });
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
