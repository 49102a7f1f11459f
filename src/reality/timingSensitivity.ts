import type { Verdict } from '../check/verdict';
import { runScenario } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';

/**
 * How late or early a real fault may land on this machine, in real milliseconds: a timer of a
 * loaded 2-core machine fires up to about this late (the harness's script slipped 1–15 ms at
 * load 7–10 beside a CI run), and a child's work, made of 4 ms slices (compute.ts), ends as
 * coarsely.
 */
export const REAL_PRECISION_MS = 10;

/** A run whose verdicts hang on timing finer than real processes keep it. */
export interface TimingSensitivity {
  /** What was changed in the simulator, in words: "the script 40 ms later", "every message 0 ms on the way". */
  change: string;
  /** The invariants whose verdict changed with it. */
  changed: string[];
}

/**
 * Whether `scenario`'s verdicts hang on timing a real run at `scale` cannot keep. The simulator
 * runs it again with each difference a real run has from the simulated one, one at a time,
 * and any verdict that changes says so:
 * - the script's faults landing REAL_PRECISION_MS of real time later, or earlier;
 * - the clients starting in the opposite order, spread over that much (a client meant to start
 *   10 ms after another at scale 0.25 starts 2.5 real ms after it, and processes wake later);
 * - messages taking loopback's ~0 ms, or 3 ms, instead of the default 1–3 ms (only when the
 *   scenario leaves the latency at its default: a latency it sets is part of its story).
 * Lesson 16's shift is one: with every message 3 ms on the way, a different worker holds the
 * lock when W4 is paused, and nobody's lease runs out under them. Such a run is named with its
 * real verdicts, which may differ without either side being wrong.
 */
export async function timingSensitivity(
  scenario: Scenario,
  scale: number,
  verdicts: readonly Verdict[],
): Promise<TimingSensitivity | null> {
  for (const variant of timingVariants(scenario, scale)) {
    const moved = await runScenario(variant.scenario);
    const changed = verdicts
      .filter((v) => moved.verdicts.find((m) => m.invariant === v.invariant)?.holds !== v.holds)
      .map((v) => v.invariant);
    if (changed.length) return { change: variant.change, changed };
  }
  return null;
}

/** The scenario as a real run at `scale` might play it instead, each difference in words. */
export function timingVariants(scenario: Scenario, scale: number): { change: string; scenario: Scenario }[] {
  const shiftMs = Math.max(1, Math.round(REAL_PRECISION_MS / scale));
  const variants: { change: string; scenario: Scenario }[] = [];
  if (scenario.script.length > 0)
    for (const by of [shiftMs, -shiftMs])
      variants.push({
        change: `the script ${shiftMs} ms ${by > 0 ? 'later' : 'earlier'} (${REAL_PRECISION_MS} real ms at scale ${scale})`,
        scenario: { ...scenario, script: scenario.script.map((step) => ({ ...step, at: Math.max(0, step.at + by) })) },
      });
  // Real processes start a few ms apart in an order of their own: clients meant to start
  // within the machine's precision of each other may start the other way round.
  if (scenario.clients.length > 1) {
    const order = [...scenario.clients].sort((a, b) => a.startAt - b.startAt);
    const last = order.length - 1;
    const clients = scenario.clients.map((c) => ({
      ...c,
      startAt: c.startAt + Math.round(((last - order.indexOf(c)) * shiftMs) / last),
    }));
    variants.push({ change: `the clients' starts reversed within ${shiftMs} ms`, scenario: { ...scenario, clients } });
  }
  if (scenario.network.latency === undefined)
    for (const latency of [0, 3])
      variants.push({
        change: `every message ${latency} ms on the way instead of 1–3 ms`,
        scenario: { ...scenario, network: { ...scenario.network, latency } },
      });
  return variants;
}

/** What the CLI says of a sensitive run. */
export function describeSensitivity(s: TimingSensitivity): string {
  return `timing: with ${s.change}, the simulator's own verdicts change (${s.changed.join(', ')}). This run hangs on timing finer than real processes keep, so its real verdicts may differ without either side being wrong.`;
}
