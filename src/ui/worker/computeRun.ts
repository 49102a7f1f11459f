import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema/schema';
import { Simulation } from '../../scenario/running/simulation';
import type { ComputedRun, RunConfig } from '../player/runModel';

/**
 * Runs the whole scenario once; the player then moves a cursor over the finished trace.
 * `onProgress` is called as the run moves on (see RunOptions.onProgress).
 */
export function computeRun(
  scenario: Scenario,
  config: RunConfig,
  scripts: ScriptEngine,
  onProgress?: () => void,
): ComputedRun {
  const simulation = new Simulation(scenario, { ...config, onProgress }, scripts).run();
  // Judging and hashing a long trace takes a while too: each is a step of its own for the watchdog.
  onProgress?.();
  const verdicts = simulation.verdicts();
  onProgress?.();
  const run = {
    events: simulation.sim.trace.toArray(),
    verdicts,
    traceHash: simulation.sim.trace.hash(),
    ended: simulation.ended,
  };
  onProgress?.();
  return run;
}
