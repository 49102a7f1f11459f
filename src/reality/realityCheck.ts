import type { Verdict } from '../check/verdict';
import { runScenario } from '../scenario/run';
import type { Scenario } from '../scenario/schema';
import { runReality, type RealityOptions, type RealRun } from './harness';
import { pairVerdicts, realVerdicts, type VerdictPair } from './verdicts';

export interface RealityCheck {
  run: RealRun;
  simulator: Verdict[];
  reality: Verdict[];
  pairs: VerdictPair[];
  /** The invariants judged differently (or judged on one side only). */
  differ: string[];
}

/** Runs `scenario` in the simulator and on real processes, and sets their verdicts side by side. */
export async function realityCheck(scenario: Scenario, options: RealityOptions): Promise<RealityCheck> {
  const [sim, run] = await Promise.all([runScenario(scenario), runReality(scenario, options)]);
  const reality = realVerdicts(scenario, run.trace, run.ended);
  const pairs = pairVerdicts(sim.verdicts, reality);
  return { run, simulator: sim.verdicts, reality, pairs, differ: pairs.filter((p) => !p.agree).map((p) => p.invariant) };
}
