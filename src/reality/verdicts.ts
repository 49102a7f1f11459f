import { runCheckers, type RunCap } from '../check/invariants';
import type { Verdict } from '../check/verdict';
import { worldSpec } from '../scenario/running/build';
import type { Scenario } from '../scenario/schema/schema';
import { DEFAULT_MAX_EVENTS, DEFAULT_MAX_SCRIPT_INSTRUCTIONS, quorumByKey } from '../scenario/running/simulation';
import type { TraceEvent } from '../sim/traceEvents';

/**
 * The simulator's own checkers on a recorded real trace, with the options a simulated run of
 * the same scenario gets (Simulation.checkOptions): a Redlock key is held by whoever holds it on a
 * majority of its masters, any other key on its one node.
 */
export function realVerdicts(scenario: Scenario, trace: readonly TraceEvent[], ended: 'idle' | 'time-cap'): Verdict[] {
  const spec = worldSpec(scenario);
  const last = trace[trace.length - 1]!;
  const cap: RunCap | null =
    ended === 'time-cap'
      ? {
          reason: 'time-cap',
          atMs: scenario.horizon,
          lastEventId: last.id,
          maxEvents: DEFAULT_MAX_EVENTS,
          maxScriptInstructions: DEFAULT_MAX_SCRIPT_INSTRUCTIONS,
          horizonMs: scenario.horizon,
        }
      : null;
  return runCheckers(trace, {
    quorumOf: quorumByKey(spec),
    progressWithinMs: scenario.checks.progressWithin,
    resourceKind: spec.resource.kind,
    expected: scenario.expect.map((e) => e.invariant),
    maxWaitMs: scenario.checks.maxWait ?? null,
    downAttemptsPerSecond: scenario.checks.downAttemptsPerSecond ?? null,
    cap,
  });
}

/** One invariant judged both ways; `real` or `sim` is null where that side did not judge it. */
export interface VerdictPair {
  invariant: string;
  sim: Verdict | null;
  real: Verdict | null;
  agree: boolean;
}

/** The two sides' verdicts side by side, in the simulator's order (then any only reality judged). */
export function pairVerdicts(sim: readonly Verdict[], real: readonly Verdict[]): VerdictPair[] {
  const names = [...new Set([...sim.map((v) => v.invariant), ...real.map((v) => v.invariant)])];
  return names.map((invariant) => {
    const s = sim.find((v) => v.invariant === invariant) ?? null;
    const r = real.find((v) => v.invariant === invariant) ?? null;
    return { invariant, sim: s, real: r, agree: s !== null && r !== null && s.holds === r.holds };
  });
}
