/**
 * `npm run bench`: prints one JSON line per figure, e.g.
 * {"name":"kernel.events_per_s","value":1234567,"unit":"events/s","baseline":7600000,"ratio":0.16}
 *
 * - kernel.events_per_s: kernel events handled per wall-clock second on the 20-client contention
 *   workload (XState clients, Redis command table, trace recorded), against the same workload on
 *   a minimal hand-written loop (src/bench/baselineLoop.ts) measured in the same run.
 * - sweep.paused_barista.runs_per_s: complete runs (build, run, all verdicts) of lesson 5's
 *   scenario, one seed after another, as the explorer would do them.
 * - trace.heap_mb.100k: heap held by a run once its trace has 100,000 events.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { contentionYaml } from '../bench/contention';
import { runBaseline } from '../bench/baselineLoop';
import { redisThroughput } from '../bench/redisThroughput';
import { parseScenario } from '../scenario/parse';
import { loadScriptEngine } from '../scenario/run';
import type { Scenario } from '../scenario/schema';
import { Simulation } from '../scenario/simulation';
import { loadScenario } from './loadScenario';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const line = (figure: Record<string, unknown>) => console.log(JSON.stringify(figure));

function scenarioOf(yaml: string): Scenario {
  const parsed = parseScenario(yaml, { file: 'bench', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.scenario;
}

/** Repeats `once` for about `ms` of wall time after a warm-up; returns (units done)/s. */
function rate(ms: number, once: () => number): number {
  const warmEnd = performance.now() + ms / 4;
  while (performance.now() < warmEnd) once();
  let units = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    units += once();
    now = performance.now();
  }
  return units / ((now - start) / 1000);
}

async function main(): Promise<void> {
  const scripts = await loadScriptEngine();
  const horizonMs = 20_000;
  const contention = scenarioOf(contentionYaml(horizonMs));

  let traceEvents = 0;
  let kernelEvents = 0;
  const engine = rate(3000, () => {
    const { sim } = new Simulation(contention, { maxEvents: Infinity }, scripts).run();
    traceEvents += sim.trace.length;
    kernelEvents += sim.kernel.executed;
    return sim.kernel.executed;
  });
  const baseline = rate(3000, () => runBaseline(horizonMs));
  line({
    name: 'kernel.events_per_s',
    value: Math.round(engine),
    unit: 'events/s',
    baseline: Math.round(baseline),
    ratio: Number((engine / baseline).toFixed(3)),
    // Each kernel event writes a few trace events (send, delivery, command, lease, belief...).
    trace_events_per_s: Math.round((engine * traceEvents) / kernelEvents),
  });

  const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  let seed = 0;
  const runs = rate(3000, () => {
    new Simulation(loaded.scenario, { seed: seed++ }, scripts).run().verdicts();
    return 1;
  });
  line({ name: 'sweep.paused_barista.runs_per_s', value: Math.round(runs), unit: 'runs/s' });

  gc();
  const before = process.memoryUsage().heapUsed;
  const big = new Simulation(scenarioOf(contentionYaml(10_000_000)), { maxEvents: 100_000 }, scripts).run();
  gc();
  const heapMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  line({ name: 'trace.heap_mb.100k', value: Number(heapMb.toFixed(1)), unit: 'MB', events: big.sim.trace.length });

  // redis.sim.commands_per_s: the SET NX PX / EVAL release / INCR mix, against a pipelined redis-server.
  for (const figure of await redisThroughput()) console.log(figure);

  // UI figures (timeline frames, step latency, bundle size), measured in Chromium: src/cli/benchUi.ts.
  await (await import('./benchUi')).benchUi();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
