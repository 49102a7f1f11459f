import {
  searchBatch,
  searchSummary,
  shrinkSchedule,
  type BatchResult,
  type ExploreResult,
  type ExplorerOptions,
} from '../../check/explorer';
import type { ExhaustiveBounds } from '../../check/exhaustive';
import { ExhaustiveSearch, type ExhaustiveOptions } from '../../check/exhaustiveSearch';
import type { Fault, FaultAction, FaultKind } from '../../check/faults';
import type { Verdict } from '../../check/verdict';
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

/** An exhaustive search's shape, for a coordinator that shares its layers among workers. */
export interface ExhaustivePlan {
  /** Single faults within the bounds: a schedule is a set of at most K of them. */
  choices: number;
  total: number;
  bounds: ExhaustiveBounds;
  targets: readonly string[];
  seed: number;
}

/** When each process last acted in a schedule's run, keyed by its fault indices ("1,7"): plain data that crosses to a worker. */
export type PrefixEntries = [string, [string, number][]][];

/** What one worker made of a range of an exhaustive search's schedules. */
export interface RangeSlice {
  ran: number;
  byQuiet: number;
  cut: number;
  /** Schedules walked: to − from, or up to the one that broke. */
  covered: number;
  /** The first schedule of the range that broke the invariant. */
  broke: { index: number; faults: Fault[]; actions: FaultAction[]; verdict: Verdict } | null;
  /** The runs of its schedules of fewer than K faults: the next layer's prefixes. */
  prefixes: PrefixEntries;
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
  /** The shape of exhaustive search `job` (its fault choices, schedules, bounds), for the coordinator to share out. */
  exhaustPlan(job: ExhaustiveJob): ExhaustivePlan;
  /**
   * Runs schedules [from, to) of one layer of `job`, the quiet reduction reading the runs of
   * their prefixes: `prefixes` (the previous layer's, sent once per layer) and those it kept.
   */
  exhaustRange(job: ExhaustiveJob, from: number, to: number, prefixes: PrefixEntries | null): RangeSlice;
}

export function createExplorerApi(scripts: ScriptEngine): ExplorerApi {
  let kept: { key: string; explorer: ExplorerOptions } | null = null;
  const explorerFor = (job: ExploreJob): ExplorerOptions => {
    const key = JSON.stringify(job);
    if (kept?.key !== key) kept = { key, explorer: scenarioExplorer(job.scenario, job.options, scripts) };
    return kept.explorer;
  };
  let sharing: { key: string; options: ExhaustiveOptions; prefixes: Map<string, ReadonlyMap<string, number>> } | null =
    null;
  const shared = (job: ExhaustiveJob) => {
    const key = JSON.stringify(job);
    if (sharing?.key !== key)
      sharing = { key, options: exhaustiveExplorer(job.scenario, job.options, scripts), prefixes: new Map() };
    return sharing;
  };
  return {
    exhaustPlan: (job) => {
      const { options } = shared(job);
      const search = new ExhaustiveSearch(options, { from: 0, to: 0, prefixes: new Map() });
      return {
        choices: search.choices.length,
        total: search.total,
        bounds: options.bounds,
        targets: options.space.processes,
        seed: options.baseSeed,
      };
    },
    exhaustRange: (job, from, to, prefixes) => {
      const state = shared(job);
      for (const [key, entries] of prefixes ?? []) state.prefixes.set(key, new Map(entries));
      const search = new ExhaustiveSearch(state.options, { from, to, prefixes: state.prefixes });
      search.advance(Infinity);
      const { ran, byQuiet, cut, done } = search.progress;
      const result = search.result();
      return {
        ran,
        byQuiet,
        cut,
        covered: done - from,
        broke: result.found
          ? { index: result.index!, faults: result.faults, actions: result.actions, verdict: result.verdict! }
          : null,
        prefixes: [...search.prefixesFound].map(([key, last]) => [key, [...last]]),
      };
    },
    plan: (job) => {
      const { space, baseSeed } = explorerFor(job);
      return { kinds: space.kinds, maxFaults: space.maxFaults, baseSeed };
    },
    search: (job, from, to) => searchBatch(explorerFor(job), from, to),
    shrink: (job, index, runs) => shrinkSchedule(explorerFor(job), index, searchSummary(explorerFor(job).space, runs)),
  };
}
