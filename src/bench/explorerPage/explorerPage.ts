import { parseScenario } from '../../scenario/text/parse';
import type { InvariantName } from '../../scenario/schema/schema';
import { startSearch } from '../../ui/explorer/coordinator';
import { startExhaustive } from '../../ui/explorer/exhaustiveCoordinator';
import { workerCount } from '../../ui/explorer/pagePool';
import { ExplorerPool, type ExplorerHandle, type ExplorerWorkerApi } from '../../ui/explorer/pool';
import * as Comlink from 'comlink';

/** One search as the bench sees it: wall time from the click to the shrunk answer, and its runs. */
export interface BenchSearch {
  ms: number;
  state: string;
  runs: number;
}

function startWorker(): ExplorerHandle {
  const worker = new Worker(new URL('../../ui/explorer/explorerWorker.ts', import.meta.url), { type: 'module' });
  return {
    api: Comlink.wrap<ExplorerWorkerApi>(worker) as unknown as ExplorerWorkerApi,
    terminate: () => worker.terminate(),
  };
}

const pools = new Map<string, ExplorerPool>();

/**
 * Runs Break it's searches on the page's own worker pool (the same coordinator, workers and
 * batches as the workbench), one per explorer seed, and times each from start to answer.
 * The pool is warmed first (workers started, Lua loaded), as it is after a learner's first search,
 * unless `cold` asks for a learner's first search. Pools are kept by `poolName` and size: the
 * throughput figures time pools of their own, whose workers have run nothing but that scenario,
 * so that the one worker and the two are compared on the same footing.
 */
async function lockstepExplorerBench(
  yaml: string,
  invariant: InvariantName,
  seeds: number[],
  budget: number,
  workers: number,
  cold = false,
  poolName = 'recipes',
): Promise<{ cores: number; searches: BenchSearch[] }> {
  const parsed = parseScenario(yaml, { file: 'bench.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  // Cold: a pool of its own whose workers start (and load Lua) inside the timed search, like a learner's first.
  let pool = cold ? new ExplorerPool(startWorker, workers) : pools.get(`${poolName}:${workers}`);
  if (!pool) pools.set(`${poolName}:${workers}`, (pool = new ExplorerPool(startWorker, workers)));
  if (!cold) await Promise.all(Array.from({ length: workers }, (_, i) => pool.worker(i).api.ready()));
  const searches: BenchSearch[] = [];
  for (const explorerSeed of seeds) {
    const t0 = performance.now();
    const outcome = await startSearch(
      pool,
      { scenario: parsed.scenario, options: { invariant, explorerSeed } },
      { budget },
    ).outcome;
    const ms = performance.now() - t0;
    const runs =
      outcome.state === 'found' || outcome.state === 'not-found'
        ? outcome.result.runs
        : outcome.state === 'stopped'
          ? outcome.runsDone
          : 0;
    searches.push({ ms, state: outcome.state === 'failed' ? `failed: ${outcome.message}` : outcome.state, runs });
  }
  if (cold) pool.terminateAll();
  return { cores: workerCount(navigator.hardwareConcurrency), searches };
}

/** One exhaustive search as the bench sees it: wall time to its answer, and what it ran. */
export interface BenchExhaustive {
  ms: number;
  state: string;
  total: number;
  ran: number;
  complete: boolean;
  /** The longest task on this page's main thread while the search ran (0: none over 50 ms). */
  longestTaskMs: number;
}

/**
 * Break it's "Every schedule up to K faults" on `workers` of the page's workers (a pool of
 * `poolName`'s, warmed first: workers started and Lua loaded), timed from start to answer.
 */
async function lockstepExhaustiveBench(
  yaml: string,
  invariant: InvariantName,
  maxFaults: number,
  workers: number,
  poolName: string,
): Promise<BenchExhaustive> {
  const parsed = parseScenario(yaml, { file: 'bench.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  let pool = pools.get(`${poolName}:${workers}`);
  if (!pool) pools.set(`${poolName}:${workers}`, (pool = new ExplorerPool(startWorker, workers)));
  await Promise.all(Array.from({ length: workers }, (_, i) => pool.worker(i).api.ready()));
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  const t0 = performance.now();
  const outcome = await startExhaustive(
    pool,
    { scenario: parsed.scenario, options: { invariant, maxFaults } },
    () => {},
  ).outcome;
  const ms = performance.now() - t0;
  // Entries are delivered after the task that ends them: one more turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 0));
  observer.disconnect();
  if (outcome.state !== 'done') throw new Error(`exhaustive search ${outcome.state}`);
  const { progress, complete } = outcome.result;
  return {
    ms,
    state: outcome.result.found ? 'found' : 'none',
    total: progress.total,
    ran: progress.ran,
    complete,
    longestTaskMs: Math.round(Math.max(0, ...longTasks)),
  };
}

/**
 * The control for the 2-worker figure: work that needs no coordination at all, allocating as a
 * simulation run does (small objects and maps, most dying young), in `workers` plain Web Workers
 * at once, `n` iterations each. How much faster two are than one here is what this machine's
 * cores, caches and garbage collectors allow allocation-heavy JavaScript, whatever the explorer does.
 */
const ALLOCATING_LOOP = `onmessage = (e) => {
  let keep = [];
  let size = 0;
  for (let i = 0; i < e.data; i++) {
    const m = new Map();
    for (let j = 0; j < 20; j++) m.set('k' + j, { at: i + j, kind: 'lock.' + (j % 5), args: [i, j] });
    keep.push(m);
    if (keep.length > 2000) keep = [];
    size += m.size;
  }
  postMessage(size);
};`;

async function lockstepAllocationControl(workers: number, n: number): Promise<number> {
  const url = URL.createObjectURL(new Blob([ALLOCATING_LOOP], { type: 'text/javascript' }));
  const started = Array.from({ length: workers }, () => new Worker(url));
  const t0 = performance.now();
  await Promise.all(started.map((w) => new Promise((done) => ((w.onmessage = done), w.postMessage(n)))));
  const ms = performance.now() - t0;
  for (const w of started) w.terminate();
  URL.revokeObjectURL(url);
  return ms;
}

Object.assign(window, { lockstepExplorerBench, lockstepExhaustiveBench, lockstepAllocationControl });
