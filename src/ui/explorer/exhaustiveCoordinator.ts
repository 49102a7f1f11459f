import type { ExhaustiveProgress, ExhaustiveResult } from '../../check/exhaustiveSearch';
import { nextBatchSize } from './coordinator';
import type { ExhaustiveJob } from './explorerApi';
import type { ExplorerPool } from './pool';

export type ExhaustiveOutcome =
  | { state: 'done'; result: ExhaustiveResult; elapsedMs: number }
  | { state: 'stopped'; progress: ExhaustiveProgress | null }
  | { state: 'failed'; message: string };

export interface ExhaustiveSearchHandle {
  readonly outcome: Promise<ExhaustiveOutcome>;
  stop(): void;
}

/** A slice's wall time: long enough that messages cost little, short enough for a live bar and a prompt Stop. */
const SLICE_TARGET_MS = 150;
/** A slice that takes longer than this means a run is stuck: its worker is ended. */
const SLICE_BUDGET_MS = 10_000;

/**
 * Walks an exhaustive search on the pool's first worker, a slice of runs at a time, reporting
 * progress after each. It is one worker's walk because whether a schedule is skipped depends on
 * runs before it (the quiet reduction reads its prefix's run). Stop ends the worker at once.
 */
export function startExhaustive(
  pool: ExplorerPool,
  job: ExhaustiveJob,
  onProgress: (progress: ExhaustiveProgress, elapsedMs: number) => void,
): ExhaustiveSearchHandle {
  const started = performance.now();
  let stopped = false;
  let last: ExhaustiveProgress | null = null;
  let stopNow: () => void = () => {};
  const stopSignal = new Promise<'stopped'>((resolve) => (stopNow = () => resolve('stopped')));

  async function walk(): Promise<ExhaustiveOutcome> {
    const { api } = pool.worker(0);
    await Promise.race([api.ready(), stopSignal]);
    let size = 4;
    for (;;) {
      if (stopped) return { state: 'stopped', progress: last };
      const t0 = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const overrun = new Promise<'overrun'>(
        (resolve) => (timer = setTimeout(() => resolve('overrun'), SLICE_BUDGET_MS)),
      );
      const slice = await Promise.race([api.exhaust(job, size), stopSignal, overrun]).finally(() =>
        clearTimeout(timer),
      );
      if (slice === 'stopped') return { state: 'stopped', progress: last };
      if (slice === 'overrun') {
        pool.replace(0);
        return {
          state: 'failed',
          message: `${size.toLocaleString('en')} runs did not answer within ${SLICE_BUDGET_MS / 1000} s, so the search stopped (a run of this scenario may be stuck)`,
        };
      }
      const ran = slice.progress.ran - (last?.ran ?? 0);
      last = slice.progress;
      onProgress(slice.progress, performance.now() - started);
      if (slice.result) return { state: 'done', result: slice.result, elapsedMs: performance.now() - started };
      size = nextBatchSize(size, ran, performance.now() - t0, SLICE_TARGET_MS);
    }
  }

  const outcome = walk().catch((error: unknown): ExhaustiveOutcome => {
    pool.terminateAll();
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) };
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
