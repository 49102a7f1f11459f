import {
  searchBatch,
  searchSummary,
  shrinkSchedule,
  type BatchResult,
  type ExploreResult,
  type ExplorerOptions,
} from '../../check/explorer';
import type { FaultKind } from '../../check/faults';
import { ExhaustiveSearch, type ExhaustiveProgress, type ExhaustiveResult } from '../../check/exhaustiveSearch';
import { exhaustiveExplorer, type ExhaustiveScenarioOptions } from '../../scenario/running/exhaustiveExplore';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { scenarioExplorer, type ExploreScenarioOptions } from '../../scenario/running/explore';
import type { Scenario } from '../../scenario/schema/schema';

/** One search: the scenario as it runs (fencing applied), and what to hunt for. */
export interface ExploreJob {
  scenario: Scenario;
  options: Omit<ExploreScenarioOptions, 'runs'>;
}

/** One exhaustive search: the scenario as it runs, the invariant and the bounds. */
export interface ExhaustiveJob {
  scenario: Scenario;
  options: ExhaustiveScenarioOptions;
}

/** A slice of an exhaustive search: how far it got, and its answer once it has one. */
export interface ExhaustiveSlice {
  progress: ExhaustiveProgress;
  result: ExhaustiveResult | null;
}

/** What a search will try: the fault kinds that apply to the scenario, and faults per run. */
export interface SearchPlan {
  kinds: readonly FaultKind[];
  maxFaults: number;
  /** The scenario's own seed (what "nothing found" leaves in the player). */
  baseSeed: number;
}

/**
 * What an explorer worker does, over one script engine: plain data in and out, so it crosses
 * the worker boundary by structured clone, and runs in-process in Node tests. Every call names
 * its job; the worker keeps the last job's explorer (its fault space needs a fault-free run
 * first), so a batch costs only its own runs.
 */
export interface ExplorerApi {
  plan(job: ExploreJob): SearchPlan;
  /** Searches schedules [from, to) and stops at the first that breaks the invariant. */
  search(job: ExploreJob, from: number, to: number): BatchResult;
  /** Shrinks failing schedule `index` to the fewest faults; `runs` is what the search made. */
  shrink(job: ExploreJob, index: number, runs: number): ExploreResult;
  /**
   * Runs up to `maxRuns` more schedules of the exhaustive search `job` (started anew when the
   * job differs from the last one): one worker walks it in order, since each schedule's skip
   * depends on runs before it.
   */
  exhaust(job: ExhaustiveJob, maxRuns: number): ExhaustiveSlice;
}

export function createExplorerApi(scripts: ScriptEngine): ExplorerApi {
  let kept: { key: string; explorer: ExplorerOptions } | null = null;
  const explorerFor = (job: ExploreJob): ExplorerOptions => {
    const key = JSON.stringify(job);
    if (kept?.key !== key) kept = { key, explorer: scenarioExplorer(job.scenario, job.options, scripts) };
    return kept.explorer;
  };
  let exhausting: { key: string; search: ExhaustiveSearch } | null = null;
  const exhaust = (job: ExhaustiveJob, maxRuns: number): ExhaustiveSlice => {
    const key = JSON.stringify(job);
    if (exhausting?.key !== key)
      exhausting = { key, search: new ExhaustiveSearch(exhaustiveExplorer(job.scenario, job.options, scripts)) };
    const { search } = exhausting;
    search.advance(maxRuns);
    return { progress: search.progress, result: search.finished ? search.result() : null };
  };
  return {
    exhaust,
    plan: (job) => {
      const { space, baseSeed } = explorerFor(job);
      return { kinds: space.kinds, maxFaults: space.maxFaults, baseSeed };
    },
    search: (job, from, to) => searchBatch(explorerFor(job), from, to),
    shrink: (job, index, runs) => shrinkSchedule(explorerFor(job), index, searchSummary(explorerFor(job).space, runs)),
  };
}
