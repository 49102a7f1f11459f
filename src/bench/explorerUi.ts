import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { build } from 'vite';
import type { InvariantName } from '../scenario/schema/schema';
import { serveStatic } from './staticSite';
import { TEMPLATE } from '../ui/workbench/workbenchModel';
import type { BenchExhaustive, BenchSearch } from './explorerPage/explorerPage';
import { choose } from '../check/combinations';
import { percentile } from './percentile';

type Figure = Record<string, unknown> & { name: string };

/** Explorer seeds per recipe: the p95 of ten searches is their second slowest. */
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
/** Runs per search in the throughput figure: a recipe no schedule breaks, so every run is made. */
const THROUGHPUT_RUNS = 3000;
/** Runs each worker of both pools makes before the throughput figure is timed (see explorerFigures). */
const WARM_UP_RUNS_PER_WORKER = 9000;
/** The allocating control's iterations per worker: about a second of work, like the explorer's search. */
const CONTROL_ITERATIONS = 250_000;

interface Recipe {
  label: string;
  yaml: string;
  invariant: InvariantName;
}

/**
 * The recipes whose time to a counterexample is measured: every clinic recipe of course 4
 * (`lessons/scenarios/clinic-*.yaml` but the `-fixed` ones, each hunted for the invariant its
 * workbench block names), the workbench's own template, and the fixtures course's un-tokened DEL.
 */
function recipes(root: string): Recipe[] {
  const dir = join(root, 'lessons/scenarios');
  const lessons = readdirSync(join(root, 'lessons'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(root, 'lessons', f), 'utf8'));
  const clinic = readdirSync(dir)
    .filter((f) => /^clinic-.*\.yaml$/.test(f) && !f.endsWith('-fixed.yaml'))
    .sort()
    .map((f) => ({
      label: f.replace(/\.yaml$/, ''),
      yaml: readFileSync(join(dir, f), 'utf8'),
      invariant: blockInvariant(lessons, `scenarios/${f}`),
    }));
  return [
    ...clinic,
    { label: 'workbench-template', yaml: TEMPLATE, invariant: 'single-writer' },
    {
      label: 'fixture-untokened-del',
      yaml: readFileSync(join(root, 'src/lessons/fixtures/e2e/scenarios/untokened-del.yaml'), 'utf8'),
      invariant: 'single-writer',
    },
  ];
}

/** Every clinic fix (`clinic-*-fixed.yaml`), judged for the invariant its recipe's workbench block breaks. */
function fixedRecipes(root: string): Recipe[] {
  const dir = join(root, 'lessons/scenarios');
  const lessons = readdirSync(join(root, 'lessons'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(root, 'lessons', f), 'utf8'));
  return readdirSync(dir)
    .filter((f) => /^clinic-.*-fixed\.yaml$/.test(f))
    .sort()
    .map((f) => ({
      label: f.replace(/\.yaml$/, ''),
      yaml: readFileSync(join(dir, f), 'utf8'),
      invariant: blockInvariant(lessons, `scenarios/${f.replace('-fixed', '')}`),
    }));
}

/** The `break:` of the workbench block that uses `ref`, else single-writer. */
function blockInvariant(lessons: readonly string[], ref: string): InvariantName {
  for (const text of lessons) {
    for (const block of text.matchAll(/```workbench\n([\s\S]*?)```/g)) {
      if (!block[1]!.includes(ref)) continue;
      const name = /^break:\s*([a-z-]+)/m.exec(block[1]!)?.[1];
      if (name) return name as InvariantName;
    }
  }
  return 'single-writer';
}

type ExplorerWindow = {
  lockstepExhaustiveBench(
    yaml: string,
    invariant: InvariantName,
    maxFaults: number,
    workers: number,
    poolName: string,
  ): Promise<BenchExhaustive>;
  lockstepAllocationControl(workers: number, n: number): Promise<number>;
  lockstepExplorerBench(
    yaml: string,
    invariant: InvariantName,
    seeds: number[],
    budget: number,
    workers: number,
    cold?: boolean,
    poolName?: string,
  ): Promise<{ cores: number; searches: BenchSearch[] }>;
};

/**
 * Break it's figures in Chromium, on the explorer's own workers (src/bench/explorerPage):
 *
 * - explorer.time_to_counterexample_p95_ms.<recipe>: from the start of a search to its shrunk
 *   answer, p95 over ten explorer seeds, with one worker per core (warm: the workers are started
 *   and their Lua VMs loaded first, as after a learner's first search; `cold_ms` is a first search,
 *   explorer seed 1, on fresh workers). Goal 1 s.
 * - explorer.runs_per_s.2_workers: runs a second on a recipe no schedule breaks (the fixtures'
 *   token-checked DEL), with 2 workers and, as its baseline in the same run, 1, each worker warmed
 *   by the same number of runs first (WARM_UP_RUNS_PER_WORKER). Goal ≥ 1.6×. Both pools are
 *   their own ('throughput'), whose workers have run nothing but this scenario: the 2 workers
 *   used to be the recipes' pool, which had searched nine other scenarios first, and ran about
 *   12% slower for it (V8's type feedback left polymorphic) than the lone worker, which had not
 *   (ratio 1.39–1.56 against 1.55–1.77 on fresh pools, three alternated bench runs each).
 *   Beside it, `control_ratio`: the same ratio for a loop that allocates as a run does and needs
 *   no coordination (explorerPage.ts), i.e. what the machine allows such work.
 * - explorer.exhaustive_k1_ms.<fix>: the exhaustive mode over each clinic fix (exhaustiveFigures).
 */
export async function explorerFigures(
  browser: Browser,
  root: string,
  parts = { random: true, exhaustive: true },
): Promise<Figure[]> {
  const pageRoot = join(root, 'src/bench/explorerPage');
  const outDir = mkdtempSync(join(tmpdir(), 'lockstep-explorer-bench-'));
  await build({
    logLevel: 'silent',
    configFile: false,
    root: pageRoot,
    base: './',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const served = await serveStatic(outDir);
  const figures: Figure[] = [];
  const page = await browser.newPage();
  try {
    await page.goto(`${served.url}/index.html`);
    const bench = (
      yaml: string,
      invariant: InvariantName,
      seeds: number[],
      budget: number,
      workers: number,
      cold = false,
      poolName = 'recipes',
    ) =>
      page.evaluate(
        ([y, i, s, b, w, c, p]) => (window as unknown as ExplorerWindow).lockstepExplorerBench(y, i, s, b, w, c, p),
        [yaml, invariant, seeds, budget, workers, cold, poolName] as const,
      );
    const cores = (await bench(TEMPLATE, 'single-writer', [1], 1, 1)).cores;
    if (parts.exhaustive) figures.push(...(await exhaustiveFigures(page, root, cores)));
    if (!parts.random) return figures;
    for (const recipe of recipes(root)) {
      const first = (await bench(recipe.yaml, recipe.invariant, [1], 2000, cores, true)).searches[0]!;
      const { searches } = await bench(recipe.yaml, recipe.invariant, SEEDS, 2000, cores);
      const times = searches.map((s) => s.ms);
      const found = searches.filter((s) => s.state === 'found').length;
      figures.push({
        name: `explorer.time_to_counterexample_p95_ms.${recipe.label}`,
        value: Math.round(percentile(times, 95)),
        unit: 'ms',
        goal: 1000,
        median: Math.round(percentile(times, 50)),
        found: `${found}/${searches.length}`,
        invariant: recipe.invariant,
        workers: cores,
        // A learner's first search also starts the workers and loads their Lua VMs.
        cold_ms: Math.round(first.ms),
      });
    }
    const fixed = readFileSync(join(root, 'src/lessons/fixtures/e2e/scenarios/untokened-del-fixed.yaml'), 'utf8');
    const rate = async (workers: number) => {
      const { searches } = await bench(fixed, 'single-writer', [1], THROUGHPUT_RUNS, workers, false, 'throughput');
      return searches[0]!.runs / (searches[0]!.ms / 1000);
    };
    // Alternated, best of three each: other work on a shared machine slows single searches, never speeds them up.
    const ones: number[] = [];
    const twos: number[] = [];
    // Untimed first, until every worker of either pool has made WARM_UP_RUNS_PER_WORKER runs:
    // V8 goes on compiling a worker's hot paths for thousands of runs (a Chrome trace showed
    // 131 ms of TurboFan work inside a 364 ms search of a pool warmed by 4,500 runs a worker,
    // against 21 ms for the lone worker warmed by 9,000), so warming both pools by the same
    // number of searches timed the two workers half as warm as the one.
    for (const workers of [1, 2]) {
      for (let runs = 0; runs < WARM_UP_RUNS_PER_WORKER; runs += THROUGHPUT_RUNS / workers) await rate(workers);
    }
    for (let round = 0; round < 3; round++) {
      ones.push(await rate(1));
      twos.push(await rate(2));
    }
    const one = Math.max(...ones);
    const two = Math.max(...twos);
    const control = (workers: number) =>
      page.evaluate(([w, n]) => (window as unknown as ExplorerWindow).lockstepAllocationControl(w, n), [
        workers,
        CONTROL_ITERATIONS,
      ] as const);
    const controlRatios: number[] = [];
    await control(2);
    for (let round = 0; round < 3; round++) controlRatios.push((2 * (await control(1))) / (await control(2)));
    figures.push({
      name: 'explorer.runs_per_s.2_workers',
      value: Math.round(two),
      unit: 'runs/s',
      baseline: Math.round(one),
      ratio: Math.round((two / one) * 100) / 100,
      goal_ratio: 1.6,
      control_ratio: Math.round(Math.max(...controlRatios) * 100) / 100,
      runs: THROUGHPUT_RUNS,
      rounds: 3,
    });
  } finally {
    await page.close();
    served.close();
  }
  return figures;
}

/**
 * explorer.exhaustive_k1_ms.<fix>: "Every schedule up to K faults" with K = 1 at its default
 * bounds (100 ms grid, every kind the scenario offers) over each clinic fix, which no schedule
 * breaks, so every schedule is run or covered: the time to the bounded claim on `cores` warm
 * workers (goal 1 s), beside one worker in the same run (`one_worker_ms`, best of two each).
 * K = 2 is not run: `k2_schedules` says how many schedules it has, and `k2_projected_s` how long
 * they would take at the K = 1 rate, before reductions. `longest_task_ms`: the longest main-thread
 * task while the workers searched (0: none over 50 ms; goal: none).
 */
async function exhaustiveFigures(page: Page, root: string, cores: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const exhaust = (recipe: Recipe, workers: number) =>
    page.evaluate(
      ([y, i, w]) => (window as unknown as ExplorerWindow).lockstepExhaustiveBench(y, i, 1, w, 'exhaustive'),
      [recipe.yaml, recipe.invariant, workers] as const,
    );
  for (const recipe of fixedRecipes(root)) {
    const ones: BenchExhaustive[] = [];
    const many: BenchExhaustive[] = [];
    for (let round = 0; round < 2; round++) {
      ones.push(await exhaust(recipe, 1));
      many.push(await exhaust(recipe, cores));
    }
    const one = Math.min(...ones.map((r) => r.ms));
    const best = many.reduce((a, b) => (b.ms < a.ms ? b : a));
    const choices = best.total - 1;
    figures.push({
      name: `explorer.exhaustive_k1_ms.${recipe.label}`,
      value: Math.round(best.ms),
      unit: 'ms',
      goal: 1000,
      workers: cores,
      one_worker_ms: Math.round(one),
      ratio: Math.round((one / best.ms) * 100) / 100,
      schedules: best.total,
      ran: best.ran,
      claim: best.state === 'none' && best.complete ? 'no break within the bounds' : best.state,
      // The coordinator's share of the page's main thread (the bench page has no panel to redraw).
      longest_task_ms: Math.max(...many.map((r) => r.longestTaskMs)),
      invariant: recipe.invariant,
      k2_schedules: best.total + choose(choices, 2),
      k2_projected_s: Math.round((choose(choices, 2) / best.ran) * best.ms) / 1000,
    });
  }
  return figures;
}
