import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema';
import { Simulation } from '../../scenario/simulation';
import type { ComputedRun, RunConfig } from '../player/runModel';

/** Runs the whole scenario once; the player then moves a cursor over the finished trace. */
export function computeRun(scenario: Scenario, config: RunConfig, scripts: ScriptEngine): ComputedRun {
  const simulation = new Simulation(scenario, config, scripts).run();
  return {
    events: simulation.sim.trace.toArray(),
    verdicts: simulation.verdicts(),
    traceHash: simulation.sim.trace.hash(),
    ended: simulation.ended,
  };
}
