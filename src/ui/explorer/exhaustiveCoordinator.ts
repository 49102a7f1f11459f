import { choose } from '../../check/combinations';
import type { ExhaustiveProgress, ExhaustiveResult } from '../../check/exhaustiveSearch';
import { nextBatchSize } from './coordinator';
import type { ExhaustiveJob, ExhaustivePlan, PrefixEntries, RangeSlice } from './explorerApi';
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

/** Schedules [from, to) of one number of faults: the layers a breadth-first search walks in turn. */
function layers(plan: ExhaustivePlan): { from: number; to: number }[] {
  const out = [{ from: 0, to: 1 }];
  for (let k = 1; k <= plan.bounds.maxFaults; k++) {
    const from = out.at(-1)!.to;
    out.push({ from, to: from + choose(plan.choices, k) });
  }
  return out;
}

class Overrun extends Error {}

/**
 * Walks an exhaustive search on every worker of the pool, a layer at a time: the scenario as
 * written, then every single fault, every pair, every triple. Within a layer the workers take
 * ranges of schedules in order, each sized to about SLICE_TARGET_MS, and progress is reported
 * after each. Whether a schedule is skipped (the quiet reduction) depends only on the run of
 * its prefix, a schedule of the layer before, so each worker is sent the previous layer's runs
 * once, when it starts on a layer. A range that breaks stops the layer from handing out ranges
 * after it; the ranges before it still running are waited for, so the answer is the first break
 * in the search's order, the one with the fewest faults, as one worker walking alone finds it.
 * Stop ends the workers at once.
 */
export function startExhaustive(
  pool: ExplorerPool,
  job: ExhaustiveJob,
  onProgress: (progress: ExhaustiveProgress, elapsedMs: number) => void,
): ExhaustiveSearchHandle {
  const started = performance.now();
  let stopped = false;
  const progress: ExhaustiveProgress = { done: 0, total: 0, ran: 0, byQuiet: 0, cut: 0 };
  let stopNow: () => void = () => {};
  const stopSignal = new Promise<'stopped'>((resolve) => (stopNow = () => resolve('stopped')));

  /** A call to worker `i` that gives up on Stop and on a stuck run. */
  async function ask<T>(i: number, call: () => Promise<T>): Promise<T | 'stopped'> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overrun = new Promise<'overrun'>(
      (resolve) => (timer = setTimeout(() => resolve('overrun'), SLICE_BUDGET_MS)),
    );
    const answer = await Promise.race([call(), stopSignal, overrun]).finally(() => clearTimeout(timer));
    if (answer === 'overrun') {
      pool.replace(i);
      throw new Overrun();
    }
    return answer;
  }

  async function walk(): Promise<ExhaustiveOutcome> {
    const first = await ask(0, async () => (await pool.worker(0).api.ready(), pool.worker(0).api.exhaustPlan(job)));
    if (first === 'stopped') return { state: 'stopped', progress: null };
    const plan = first;
    progress.total = plan.total;
    let prefixes: PrefixEntries = [];
    let broke: NonNullable<RangeSlice['broke']> | null = null;
    for (const layer of layers(plan)) {
      let next = layer.from;
      const found: PrefixEntries = [];
      const worker = async (i: number) => {
        let size = 4;
        let sent = false;
        for (;;) {
          const remaining = layer.to - next;
          if (stopped || remaining <= 0 || (broke !== null && next > broke.index)) return;
          const from = next;
          const to = from + Math.max(1, Math.min(size, Math.ceil(remaining / pool.size)));
          next = to;
          const t0 = performance.now();
          const carried = sent ? null : prefixes;
          sent = true;
          const slice = await ask(i, () => pool.worker(i).api.exhaustRange(job, from, to, carried));
          if (slice === 'stopped') return;
          progress.done += slice.covered;
          progress.ran += slice.ran;
          progress.byQuiet += slice.byQuiet;
          progress.cut += slice.cut;
          found.push(...slice.prefixes);
          if (slice.broke && (broke === null || slice.broke.index < broke.index)) broke = slice.broke;
          onProgress({ ...progress }, performance.now() - started);
          size = nextBatchSize(size, slice.ran, performance.now() - t0, SLICE_TARGET_MS);
        }
      };
      await Promise.all(Array.from({ length: layer.to - layer.from === 1 ? 1 : pool.size }, (_, i) => worker(i)));
      if (stopped) return { state: 'stopped', progress: { ...progress } };
      if (broke) break;
      prefixes = found;
    }
    const answer = broke as NonNullable<RangeSlice['broke']> | null;
    const result: ExhaustiveResult = {
      found: answer !== null,
      complete: answer === null && progress.done >= plan.total,
      faults: answer?.faults ?? [],
      actions: answer?.actions ?? [],
      seed: plan.seed,
      index: answer?.index ?? null,
      verdict: answer?.verdict ?? null,
      progress: { ...progress },
      bounds: plan.bounds,
      targets: plan.targets,
    };
    return { state: 'done', result, elapsedMs: performance.now() - started };
  }

  const outcome = walk().catch((error: unknown): ExhaustiveOutcome => {
    // The other workers' loops end, and their calls in flight give up.
    stopped = true;
    pool.terminateAll();
    stopNow();
    if (error instanceof Overrun)
      return {
        state: 'failed',
        message: `a slice of runs did not answer within ${SLICE_BUDGET_MS / 1000} s, so the search stopped (a run of this scenario may be stuck)`,
      };
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
