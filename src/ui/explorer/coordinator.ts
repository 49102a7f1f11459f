import { nothingFound, searchableRuns, searchSummary, type ExploreResult } from '../../check/explorer';
import type { ExploreJob, SearchPlan } from './explorerApi';
import type { ExplorerPool, ExplorerWorkerApi } from './pool';

/** How far a search has got. */
export interface SearchProgress {
  runsDone: number;
  budget: number;
  elapsedMs: number;
}

export type SearchOutcome =
  | { state: 'found'; result: ExploreResult; elapsedMs: number }
  | { state: 'not-found'; result: ExploreResult; elapsedMs: number }
  | { state: 'stopped'; runsDone: number }
  | { state: 'failed'; message: string };

/** Wall time, injected so tests can drive the watchdog without waiting. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface SearchOptions {
  /** Runs to try, the scenario as written included. */
  budget: number;
  onProgress?: (progress: SearchProgress) => void;
  /** Something the learner should know that does not end the search (a worker replaced). */
  onNotice?: (message: string) => void;
  clock?: Clock;
  /** Wall time a batch aims at: long enough to amortise messages, short enough for a live progress bar and a prompt Stop. */
  batchTargetMs?: number;
  /** Wall time a batch (or a shrink) may take before its worker is replaced. */
  batchBudgetMs?: number;
  /** Wall time a fresh worker may take to load its Lua VM. */
  startBudgetMs?: number;
}

/** A running search: its outcome, and a Stop. */
export interface ExplorerSearch {
  readonly outcome: Promise<SearchOutcome>;
  stop(): void;
}

const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** The first batch of each worker: small, so the scenario as written answers at once. Also the smallest batch. */
const FIRST_BATCH = 4;
const MAX_BATCH = 2000;
/**
 * How fast batches may grow: a batch at most this many times the last. The pace a first batch
 * of FIRST_BATCH runs measures is rough (it is cold, and a few runs are a few hundred
 * microseconds), so growth is capped; but doubling from 4 took nine round trips to reach a
 * 150 ms batch, and in a search of 3,000 runs on two workers those trips were most of each
 * worker's batches, each one a message's wait with the worker idle. With 8: three, and the
 * 2-worker bench went from 1.48 to 1.52 times one worker's runs a second (three alternated
 * pairs, each pair in the same direction).
 */
const GROWTH = 8;
/**
 * Near the end a worker is handed at most 1/(TAIL_SHARE × workers) of the runs left, so the
 * workers finish together. A batch's time is predicted from its worker's last pace, which moves by
 * half when the other workers stop or start (5.2 runs/ms alone, 3.5 beside another, in Chromium
 * on 2 cores) and with collections: with a share of 1/workers (guided self-scheduling) one
 * mispredicted batch holds the others idle for up to half its length, while with half that share
 * (factoring) the other half of what is left is still being shared out while it runs.
 */
const TAIL_SHARE = 2;

class Timeout extends Error {}
class Stopped extends Error {}

/**
 * Searches schedules [0, budget) of `job` on the pool's workers. Batches are handed out in index
 * order as workers free up, each sized to take about `batchTargetMs`, and smaller near the end so
 * that the workers finish together. The answer is the **lowest** failing index: once one is
 * found no batch starts beyond it, and the search waits for every batch below it, so the answer
 * is the same whatever the number of workers or their speeds. That schedule is then shrunk on
 * the worker that found it.
 *
 * A batch that does not answer within `batchBudgetMs` gets its worker replaced and is tried
 * once more on a fresh one (the machine may have been busy); a second overrun ends the search.
 */
export function startSearch(pool: ExplorerPool, job: ExploreJob, options: SearchOptions): ExplorerSearch {
  const clock = options.clock ?? realClock;
  const targetMs = options.batchTargetMs ?? 150;
  const batchBudgetMs = options.batchBudgetMs ?? 10_000;
  const startBudgetMs = options.startBudgetMs ?? 30_000;
  const started = clock.now();
  let runsDone = 0;
  let cutDone = 0;
  let stopped = false;
  let stopNow: () => void = () => {};
  const stopSignal = new Promise<never>((_, reject) => (stopNow = () => reject(new Stopped())));
  stopSignal.catch(() => undefined);
  const ready = new Set<ExplorerWorkerApi>();

  /** `call` on slot `i`'s worker (started and loaded first if need be), under the watchdog. */
  async function onWorker<T>(i: number, call: (api: ExplorerWorkerApi) => Promise<T>, budgetMs: number): Promise<T> {
    const { api } = pool.worker(i);
    if (!ready.has(api)) {
      await watched(api.ready(), startBudgetMs);
      ready.add(api);
    }
    return watched(call(api), budgetMs);
  }

  function watched<T>(promise: Promise<T>, budgetMs: number): Promise<T> {
    let timer: unknown;
    const timeout = new Promise<never>(
      (_, reject) => (timer = clock.setTimeout(() => reject(new Timeout()), budgetMs)),
    );
    return Promise.race([promise, timeout, stopSignal]).finally(() => clock.clearTimeout(timer));
  }

  async function search(): Promise<SearchOutcome> {
    const plan: SearchPlan = await onWorker(0, (api) => api.plan(job), batchBudgetMs);
    const limit = searchableRuns(plan, options.budget);
    let next = 0;
    let best = Infinity;
    let foundBy = 0;
    const inFlight = new Set<number>();
    let searched: () => void = () => {};
    const allSearched = new Promise<void>((resolve) => (searched = resolve));
    // Searched once every index below the answer (or the budget) has been handed out and answered;
    // batches still running beyond the answer are not waited for.
    const checkSearched = () => {
      const end = Math.min(limit, best);
      if (next >= end && retries.length === 0 && ![...inFlight].some((from) => from < end)) searched();
    };
    const retries: { from: number; to: number }[] = [];
    const sizes = Array.from({ length: pool.size }, () => FIRST_BATCH);

    async function loop(i: number): Promise<void> {
      for (;;) {
        const retry = retries.shift();
        const from = retry?.from ?? next;
        const end = Math.min(limit, best);
        const to = retry?.to ?? Math.min(end, from + batchSize(sizes[i]!, end - from, pool.size));
        if (from >= end) return;
        if (!retry) next = to;
        const t0 = clock.now();
        let answer;
        inFlight.add(from);
        try {
          answer = await onWorker(i, (api) => api.search(job, from, to), batchBudgetMs);
        } catch (error) {
          inFlight.delete(from);
          if (!(error instanceof Timeout)) throw error;
          pool.replace(i);
          if (retry)
            throw new Error(
              `runs ${from + 1}–${to} did not answer within ${batchBudgetMs / 1000} s twice, so the search stopped (a run of this scenario may be stuck)`,
              { cause: error },
            );
          options.onNotice?.(
            `A batch (runs ${from + 1}–${to}) did not answer within ${batchBudgetMs / 1000} s: its worker was replaced and the batch is being tried again.`,
          );
          retries.push({ from, to });
          continue;
        }
        inFlight.delete(from);
        sizes[i] = nextBatchSize(sizes[i]!, answer.runs, clock.now() - t0, targetMs);
        // A batch beyond the lowest failing index found so far is no longer needed.
        if (from >= best) continue;
        runsDone += answer.runs;
        cutDone += answer.cut;
        if (answer.failing !== null && answer.failing < best) {
          best = answer.failing;
          foundBy = i;
        }
        options.onProgress?.({ runsDone, budget: limit, elapsedMs: clock.now() - started });
        checkSearched();
      }
    }

    checkSearched();
    const loops = Promise.all(Array.from({ length: pool.size }, (_, i) => loop(i)));
    await Promise.race([allSearched, loops.then(() => allSearched)]);
    if (best === Infinity) {
      const result = nothingFound(plan, searchSummary(plan, limit, cutDone));
      return { state: 'not-found', result, elapsedMs: clock.now() - started };
    }
    // The search reports the runs up to the failing one: the same figure with any number of workers.
    const result = await onWorker(foundBy, (api) => api.shrink(job, best, best + 1), batchBudgetMs);
    return { state: 'found', result, elapsedMs: clock.now() - started };
  }

  const outcome = search().catch((error: unknown): SearchOutcome => {
    if (error instanceof Stopped) return { state: 'stopped', runsDone };
    pool.terminateAll();
    const message =
      error instanceof Timeout
        ? `the explorer did not start within ${startBudgetMs / 1000} s`
        : error instanceof Error
          ? error.message
          : String(error);
    return { state: 'failed', message };
  });
  return {
    outcome,
    stop() {
      if (stopped) return;
      stopped = true;
      pool.terminateAll();
      stopNow();
    },
  };
}

/**
 * A worker's next batch: what its pace fits in the target (`fitted`), but never more than its
 * share of the `remaining` runs nor fewer than a first batch. Without the share, the last batch
 * is as long as any other and one worker idles up to a whole target (150 ms) while another ends it.
 * A lone worker has no one to finish with: shrinking its last batches would only add messages.
 */
function batchSize(fitted: number, remaining: number, workers: number): number {
  if (workers === 1) return fitted;
  return Math.min(fitted, Math.max(FIRST_BATCH, Math.ceil(remaining / (TAIL_SHARE * workers))));
}

/**
 * What a worker's pace fits in `targetMs`, from its last batch, at most GROWTH times as many runs
 * at a time. A batch cut short (by its share of the tail, the budget, or a failing run) leaves it
 * as it was.
 */
export function nextBatchSize(size: number, runs: number, elapsedMs: number, targetMs: number): number {
  if (runs < size) return size;
  const fitted = elapsedMs > 0 ? Math.round((runs / elapsedMs) * targetMs) : size * GROWTH;
  return Math.max(1, Math.min(MAX_BATCH, size * GROWTH, fitted));
}
