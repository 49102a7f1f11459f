import * as Comlink from 'comlink';
import { ExplorerPool, type ExplorerHandle, type ExplorerWorkerApi } from './pool';

/** More workers than this add little on a laptop and cost each a Lua VM's memory. */
const MAX_WORKERS = 8;

/** One worker per core, at least one, at most MAX_WORKERS. */
export function workerCount(hardwareConcurrency: number | undefined): number {
  return Math.min(MAX_WORKERS, Math.max(1, Math.floor(hardwareConcurrency ?? 1) || 1));
}

function startWorker(): ExplorerHandle {
  const worker = new Worker(new URL('./explorerWorker.ts', import.meta.url), {
    type: 'module',
    name: 'lockstep-explorer',
  });
  return {
    api: Comlink.wrap<ExplorerWorkerApi>(worker) as unknown as ExplorerWorkerApi,
    terminate: () => worker.terminate(),
  };
}

const pools = new Map<number, ExplorerPool>();

/**
 * The page's explorer pool (one per size: the bench compares 1 and 2 workers), shared by every
 * Break it panel on the page. Workers start when a search first asks for them.
 */
export function pageExplorerPool(size: number = workerCount(navigator.hardwareConcurrency)): ExplorerPool {
  let pool = pools.get(size);
  if (!pool) pools.set(size, (pool = new ExplorerPool(startWorker, size)));
  return pool;
}
