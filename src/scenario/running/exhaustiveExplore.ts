import { EXPLORE_MAX_EVENTS } from '../../check/explorer';
import { defaultBounds, type ExhaustiveBounds } from '../../check/exhaustive';
import type { ExhaustiveOptions, ExhaustiveRun } from '../../check/exhaustiveSearch';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { scenarioExplorer } from './explore';
import type { InvariantName, Scenario } from '../schema/schema';
import { Simulation } from './simulation';

export interface ExhaustiveScenarioOptions {
  invariant: InvariantName;
  /** K, the faults per schedule (default 1). */
  maxFaults?: number;
  /** Any bound to change from the defaults (100 ms grid, pauses 0.5–20 s, the scenario's window). */
  bounds?: Partial<Omit<ExhaustiveBounds, 'maxFaults'>>;
  reductions?: ExhaustiveOptions['reductions'];
}

/**
 * An exhaustive search set up for one scenario: the random explorer's fault space (the kinds
 * that apply, and whom they hit) and window, the scenario's own seed, and a runner that also reports when each process last acted.
 */
export function exhaustiveExplorer(
  scenario: Scenario,
  options: ExhaustiveScenarioOptions,
  scripts?: ScriptEngine,
): ExhaustiveOptions {
  const random = scenarioExplorer(
    scenario,
    { invariant: options.invariant, maxFaults: options.maxFaults ?? 1 },
    scripts,
  );
  const judged: Scenario = { ...scenario, expect: [{ invariant: options.invariant, outcome: 'violated' }] };
  const bounds = { ...defaultBounds(random.space, options.maxFaults ?? 1), ...options.bounds };
  return {
    invariant: options.invariant,
    baseSeed: random.baseSeed,
    space: random.space,
    bounds: { ...bounds, kinds: bounds.kinds.filter((k) => random.space.kinds.includes(k)) },
    ...(options.reductions ? { reductions: options.reductions } : {}),
    run: (seed, actions): ExhaustiveRun => {
      const simulation = new Simulation(judged, { seed, actions, maxEvents: EXPLORE_MAX_EVENTS }, scripts).run();
      const verdict = simulation.verdictOn(options.invariant);
      const capped =
        simulation.ended === 'event-cap' || simulation.ended === 'script-cap'
          ? simulation.verdictOn('run-completes')
          : null;
      const trace = simulation.sim.trace;
      const lastActiveMs = new Map<string, number>();
      for (let i = 0; i < trace.length; i++) lastActiveMs.set(trace.actorAt(i), trace.timeAt(i));
      simulation.release();
      return { verdicts: [...(verdict ? [verdict] : []), ...(capped ? [capped] : [])], lastActiveMs };
    },
  };
}
