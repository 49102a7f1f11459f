/**
 * `npm run bench`: prints one JSON line per figure, e.g.
 * {"name":"kernel.events_per_s","value":1234567,"unit":"events/s","baseline":7600000,"ratio":0.16}
 *
 * - kernel.events_per_s: kernel events handled per wall-clock second on the 20-client contention
 *   workload (XState clients, Redis command table, trace recorded), against the same workload on
 *   a minimal hand-written loop (src/bench/baselineLoop.ts), their windows alternating in the
 *   same run. A guard, not a goal: the ratio must stay at or above 0.05 (DESIGN §12).
 * - sweep.paused_barista.runs_per_s: complete runs (build, run, all verdicts) of lesson 5's
 *   scenario, one seed after another. (The explorer judges only the invariant it hunts and
 *   releases each run: src/bench/explorerAllocation.ts measures what its runs allocate.)
 * - kernel.parts: the same workload's two halves apart (src/bench/contention.ts): events/s of
 *   the retry traffic alone, and wall-clock µs per job of a lone client working job after job.
 * - kernel.xstate_floor: what XState alone takes of a contention run (its jobs times a job's
 *   transitions on a bare actor, src/bench/xstateJobCycle.ts), beside the whole run's time.
 * - trace.heap_mb.100k: memory (heap and typed-array contents) held by a run once its trace
 *   has 100,000 events.
 * - herd.run_ms.fixed / .backoff: lesson 13's fifty-client herd, one complete run with verdicts
 *   and dashboard metrics (src/bench/herd.ts), goal ≤ 200 ms.
 * Then redis.sim.commands_per_s (src/bench/redisThroughput.ts) and the UI figures (uiFigures.ts).
 * `--only kernel|sweep|heap|herd|redis|ui` runs one group.
 *
 * Throughputs are the median of several one-second windows after a warm-up, so a burst of
 * other work on the machine moves them less; `windows` lists every window's figure. The kernel's
 * two sides alternate window by window (see ratePair).
 *
 * `npm run bench` runs this file bundled by esbuild, like the site's code is bundled, rather
 * than through tsx: tsx keeps function names by redefining `name` on every closure it creates,
 * and V8 then gives each such closure a hidden class of its own, which makes short-lived objects
 * outlive young-generation collections. Under tsx the seed sweep ran about a third slower.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { contentionYaml, jobsOnlyYaml, retryOnlyYaml } from './contention';
import { runBaseline } from './baselineLoop';
import { herdRunMs } from './herd';
import { xstateJobCycles } from './xstateJobCycle';
import { redisThroughput } from './redisThroughput';
import { parseScenario } from '../scenario/text/parse';
import { loadScriptEngine } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import { Simulation } from '../scenario/running/simulation';
import type { TraceKind } from '../sim/traceEvents';
import { loadScenario } from '../cli/loadScenario';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const line = (figure: Record<string, unknown>) => console.log(JSON.stringify(figure));

function scenarioOf(yaml: string): Scenario {
  const parsed = parseScenario(yaml, { file: 'bench', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.scenario;
}

const wallMs = () => performance.now();

interface Rate {
  median: number;
  windows: number[];
}

/** Units `once` does per second in a window of about a second. */
function windowRate(once: () => number): number {
  let units = 0;
  const start = wallMs();
  let now = start;
  while (now - start < 1000) {
    units += once();
    now = wallMs();
  }
  return units / ((now - start) / 1000);
}

function median(rates: number[]): number {
  return [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
}

/** How fast `once` goes: (units done)/s in each of `windows` windows of about a second, after a warm-up. */
function rate(once: () => number, windows = 7): Rate {
  const warmEnd = wallMs() + 2000;
  while (wallMs() < warmEnd) once();
  const rates = Array.from({ length: windows }, () => windowRate(once));
  return { median: median(rates), windows: rates.map(Math.round) };
}

/**
 * Two rates compared: their windows alternate (a, b, a, b…), so a burst of other work on the
 * machine, or its warming or throttling, falls on both sides alike.
 */
function ratePair(a: () => number, b: () => number, windows = 7): [Rate, Rate] {
  const warmEnd = wallMs() + 2000;
  while (wallMs() < warmEnd) {
    a();
    b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let w = 0; w < windows; w++) {
    as.push(windowRate(a));
    bs.push(windowRate(b));
  }
  return [
    { median: median(as), windows: as.map(Math.round) },
    { median: median(bs), windows: bs.map(Math.round) },
  ];
}

const RELEASES: ReadonlySet<TraceKind> = new Set<TraceKind>(['lock.released']);

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const runs = (group: string): boolean => only === undefined || only === group;

async function main(): Promise<void> {
  const scripts = await loadScriptEngine();

  if (runs('kernel')) {
    const horizonMs = 20_000;
    const contention = scenarioOf(contentionYaml(horizonMs));
    // Every run of the workload is the same run (same scenario, same seed): keep one to count in.
    let run = new Simulation(contention, { maxEvents: Infinity }, scripts).run().sim;
    const [engine, baseline] = ratePair(
      () => {
        run = new Simulation(contention, { maxEvents: Infinity }, scripts).run().sim;
        return run.kernel.executed;
      },
      () => runBaseline(horizonMs),
    );
    line({
      name: 'kernel.events_per_s',
      value: Math.round(engine.median),
      unit: 'events/s',
      baseline: Math.round(baseline.median),
      ratio: Number((engine.median / baseline.median).toFixed(3)),
      guard: 0.05,
      // Each kernel event writes a few trace events (send, delivery, command, lease, belief...).
      trace_events_per_s: Math.round((engine.median * run.trace.length) / run.kernel.executed),
      windows: engine.windows,
      baseline_windows: baseline.windows,
    });
    // Where that time goes: the retry traffic alone, and one job (transitions, write, release) alone.
    const retryOnly = scenarioOf(retryOnlyYaml(horizonMs));
    const retries = rate(
      () => new Simulation(retryOnly, { maxEvents: Infinity }, scripts).run().sim.kernel.executed,
      3,
    );
    const jobsOnly = scenarioOf(jobsOnlyYaml(horizonMs * 5));
    const jobs = rate(
      () => new Simulation(jobsOnly, { maxEvents: Infinity }, scripts).run().sim.trace.ofKinds(RELEASES).length,
      3,
    );
    line({
      name: 'kernel.parts',
      retry_only_events_per_s: Math.round(retries.median),
      us_per_job: Number((1e6 / jobs.median).toFixed(1)),
    });
    // XState's floor: a run's jobs times the four transitions of a job on a bare actor, beside
    // what the whole run takes now: how much of a run is the machines' own cost.
    const jobsPerRun = run.trace.ofKinds(RELEASES).length;
    const cycles = xstateJobCycles();
    const cycle = rate(() => (cycles(100), 100), 3);
    const budgetMs = (eventsPerS: number) => Number(((1000 * run.kernel.executed) / eventsPerS).toFixed(1));
    line({
      name: 'kernel.xstate_floor',
      us_per_job: Number((1e6 / cycle.median).toFixed(1)),
      jobs_per_run: jobsPerRun,
      ms_per_run: Number(((jobsPerRun * 1000) / cycle.median).toFixed(1)),
      run_ms_now: budgetMs(engine.median),
    });
  }

  if (runs('sweep')) {
    const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    let seed = 0;
    const sweep = rate(() => {
      new Simulation(loaded.scenario, { seed: seed++ }, scripts).run().verdicts();
      return 1;
    });
    line({
      name: 'sweep.paused_barista.runs_per_s',
      value: Math.round(sweep.median),
      unit: 'runs/s',
      windows: sweep.windows,
    });
  }

  if (runs('heap')) {
    // The trace keeps its numbers in typed arrays, whose contents V8 counts outside the heap
    // (arrayBuffers): they are counted here too.
    const used = () => {
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.arrayBuffers;
    };
    gc();
    const before = used();
    const big = new Simulation(scenarioOf(contentionYaml(10_000_000)), { maxEvents: 100_000 }, scripts).run();
    gc();
    const heapMb = (used() - before) / 2 ** 20;
    line({ name: 'trace.heap_mb.100k', value: Number(heapMb.toFixed(1)), unit: 'MB', events: big.sim.trace.length });
  }

  // herd.run_ms.*: lesson 13's fifty clients retrying for one lock, one complete run with its
  // verdicts and the dashboard's metrics (goal 200 ms), on a fixed delay and with backoff.
  if (runs('herd')) {
    for (const name of ['fixed', 'backoff']) {
      const loaded = loadScenario(`lessons/scenarios/herd-${name}.yaml`);
      if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
      const ms = herdRunMs(loaded.scenario, scripts);
      line({
        name: `herd.run_ms.${name}`,
        value: ms.median,
        unit: 'ms',
        goal: 200,
        min: ms.min,
        max: ms.max,
        trace_events: ms.events,
      });
    }
  }

  // redis.sim.commands_per_s: the SET NX PX / EVAL release / INCR mix, against a pipelined redis-server.
  if (runs('redis')) for (const figure of await redisThroughput()) console.log(figure);

  // UI figures (timeline frames, step latency, bundle size), measured in Chromium: src/bench/uiFigures.ts.
  if (runs('ui')) await (await import('./uiFigures')).benchUi();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
