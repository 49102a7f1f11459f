import { lockMetrics } from '../check/metrics';
import type { ScriptEngine } from '../redis/scriptEngine';
import type { Scenario } from '../scenario/schema/schema';
import { Simulation } from '../scenario/running/simulation';

/**
 * The thundering-herd figure (lesson 13): wall-clock time of one complete run of fifty clients
 * retrying for one lock (lessons/scenarios/herd-*.yaml), including its verdicts and the lock
 * metrics the dashboard draws from it. The goal is 200 ms in Node. The median of `runs` runs
 * after `warmups` unmeasured ones, so the JIT has settled and a burst of other work on the
 * machine moves the figure less.
 */
export function herdRunMs(
  scenario: Scenario,
  scripts: ScriptEngine,
  runs = 15,
  warmups = 5,
): { median: number; min: number; max: number; events: number } {
  let events = 0;
  const once = () => {
    const simulation = new Simulation(scenario, {}, scripts).run();
    simulation.verdicts();
    const trace = simulation.sim.trace.toArray();
    lockMetrics(trace);
    events = trace.length;
  };
  for (let i = 0; i < warmups; i++) once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Number(ms.toFixed(1));
  return {
    median: round(times[Math.floor(times.length / 2)]!),
    min: round(times[0]!),
    max: round(times[times.length - 1]!),
    events,
  };
}
