import type { Verdict } from '../check/verdict';
import { runScenario } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import { runReality, type RealityOptions, type RealRun } from './harness';
import { timingSensitivity, type TimingSensitivity } from './timingSensitivity';
import { pairVerdicts, realVerdicts, type VerdictPair } from './verdicts';

export interface RealityCheck {
  run: RealRun;
  simulator: Verdict[];
  reality: Verdict[];
  pairs: VerdictPair[];
  /** The invariants judged differently (or judged on one side only). */
  differ: string[];
  /** Real runs made: more than one when a run could not keep the script's schedule. */
  attempts: number;
  /** Every attempt's script landed later than `marginMs`: the last one is compared, but proves nothing either way. */
  inconclusive: boolean;
  /** Whether the simulator's own verdicts hang on timing finer than a real run keeps (null: they do not). */
  sensitivity: TimingSensitivity | null;
}

export interface CheckOptions extends RealityOptions {
  /**
   * The scenario time between a scripted fault and what it must come before (lesson 5's pause
   * lands 6 ms before the barista would write): a real run whose script slipped by this much
   * may have let the process act first, so it is run again, up to `attempts` times in all.
   */
  marginMs?: number;
  attempts?: number;
}

/** Runs `scenario` in the simulator and on real processes, and sets their verdicts side by side. */
export async function realityCheck(
  scenario: Scenario,
  { marginMs = Infinity, attempts = 3, ...options }: CheckOptions,
): Promise<RealityCheck> {
  const sim = await runScenario(scenario);
  const sensitivity = await timingSensitivity(scenario, options.scale, sim.verdicts);
  let run: RealRun;
  let made = 0;
  do {
    run = await runReality(scenario, options);
    made++;
  } while (run.scheduleSlipMs >= marginMs && made < attempts);
  const reality = realVerdicts(scenario, run.trace, run.ended);
  const pairs = pairVerdicts(sim.verdicts, reality);
  return {
    run,
    simulator: sim.verdicts,
    reality,
    pairs,
    differ: pairs.filter((p) => !p.agree).map((p) => p.invariant),
    attempts: made,
    inconclusive: run.scheduleSlipMs >= marginMs,
    sensitivity,
  };
}
