import { Prng } from '../sim/prng';
import {
  faultActionsInOrder,
  randomFaults,
  type Fault,
  type FaultAction,
  type FaultKind,
  type FaultSpace,
} from './faults';
import { ddmin, simplifyFaults } from './shrink';
import type { Verdict } from './verdict';

export { type Fault, type FaultAction, type FaultKind, type FaultSpace } from './faults';

export interface ExplorerOptions {
  /** The invariant to break, e.g. 'single-writer'. */
  invariant: string;
  /** Runs (seed, actions) to the end and returns its verdicts. */
  run: (seed: number, actions: readonly FaultAction[]) => readonly Verdict[];
  /** The faults that apply to this world, and where they may land. */
  space: FaultSpace;
  /** The scenario's own seed: tried first, and preferred when shrinking. */
  baseSeed: number;
  /** Seeds this explorer's own choices: the same explorer seed finds the same answer. */
  explorerSeed: number;
}

/** One schedule of the search: a seed and the faults to inject. */
export interface Schedule {
  seed: number;
  faults: Fault[];
}

/** What a search tried, to say so when it found nothing (it is evidence, not proof). */
/** A cap per explored run, so a schedule that wedges the world costs little. */
export const EXPLORE_MAX_EVENTS = 50_000;

export interface SearchSummary {
  /** Runs made. */
  runs: number;
  kinds: readonly FaultKind[];
  /** Distinct seeds tried: the scenario's own and the random ones. */
  seeds: number;
  maxFaults: number;
  /**
   * Runs a budget stopped before they ended (the event cap, or the scripts' instruction cap):
   * each was judged only on the events it reached. Counted by searches that ran to the end.
   */
  cut: number;
}

export interface ExploreResult {
  found: boolean;
  /** The run's seed and the minimal faults that break the invariant (empty: it breaks as written). */
  seed: number;
  faults: Fault[];
  /** The faults as learner actions, in time order. */
  actions: FaultAction[];
  /** Runs made, searching and shrinking. */
  runs: number;
  /** The verdict of the minimal run, naming the events that prove it. */
  verdict: Verdict | null;
  /** The schedule's index in the search (null when nothing was found). */
  index: number | null;
  /** What the search covered. */
  summary: SearchSummary;
}

/**
 * Schedule `index` of the search, computed from (explorerSeed, index) alone so that any worker
 * can compute any index. Index 0 is the scenario as written; odd indices keep the scenario's
 * seed so the faults alone vary; even ones draw a seed of their own.
 */
export function scheduleAt(
  options: Pick<ExplorerOptions, 'space' | 'baseSeed' | 'explorerSeed'>,
  index: number,
): Schedule {
  if (index === 0) return { seed: options.baseSeed, faults: [] };
  const random = Prng.fromSeed(options.explorerSeed).fork(`schedule:${index}`);
  const seed = index % 2 === 1 ? options.baseSeed : random.int(0, 2 ** 31 - 1);
  return { seed, faults: randomFaults(random, options.space) };
}

/** Whether (seed, faults) breaks the invariant, and the verdict that says so. */
function verdictOf(options: ExplorerOptions, seed: number, faults: readonly Fault[]): Verdict | null {
  return options.run(seed, faultActionsInOrder(faults)).find((v) => v.invariant === options.invariant) ?? null;
}

function breaks(options: ExplorerOptions, seed: number, faults: readonly Fault[]): boolean {
  return verdictOf(options, seed, faults)?.holds === false;
}

export interface BatchResult {
  /** The lowest index in [from, to) whose run breaks the invariant, or null. */
  failing: number | null;
  /** Runs made (the batch stops at its first failing index). */
  runs: number;
  /** Of those, the runs a budget stopped before they ended (SearchSummary.cut). */
  cut: number;
}

/** Searches schedules [from, to) in order and stops at the first that breaks the invariant. */
export function searchBatch(options: ExplorerOptions, from: number, to: number): BatchResult {
  let cut = 0;
  for (let i = from; i < to; i++) {
    const { seed, faults } = scheduleAt(options, i);
    const verdicts = options.run(seed, faultActionsInOrder(faults));
    if (verdicts.some((v) => v.invariant === 'run-completes' && !v.holds)) cut++;
    if (verdicts.find((v) => v.invariant === options.invariant)?.holds === false)
      return { failing: i, runs: i - from + 1, cut };
  }
  return { failing: null, runs: Math.max(0, to - from), cut };
}

/**
 * Shrinks the failing schedule `index`: the scenario's own seed replaces a random one when it
 * still fails, delta debugging drops every fault it can, and pauses, jumps, outages and times
 * are made rounder. `searchRuns` (the runs the search made) is added to the result's count.
 */
export function shrinkSchedule(options: ExplorerOptions, index: number, summary: SearchSummary): ExploreResult {
  let runs = summary.runs;
  const counted: ExplorerOptions = { ...options, run: (seed, actions) => (runs++, options.run(seed, actions)) };
  let { seed, faults } = scheduleAt(options, index);
  if (seed !== options.baseSeed && breaks(counted, options.baseSeed, faults)) seed = options.baseSeed;
  faults = ddmin(faults, (fs) => breaks(counted, seed, fs));
  faults = simplifyFaults(faults, (fs) => breaks(counted, seed, fs));
  const verdict = verdictOf(counted, seed, faults);
  return { found: true, seed, faults, actions: faultActionsInOrder(faults), runs, verdict, index, summary };
}

/** What a search of `runs` schedules covers. */
export function searchSummary(space: Pick<FaultSpace, 'kinds' | 'maxFaults'>, runs: number, cut = 0): SearchSummary {
  // Even indices from 2 on draw a seed of their own; the rest keep the scenario's.
  const randomSeeds = Math.max(0, Math.floor((runs - 1) / 2));
  return { runs, kinds: space.kinds, seeds: Math.min(runs, 1) + randomSeeds, maxFaults: space.maxFaults, cut };
}

/** A budget of runs, cut to the one run as written when no fault applies (every schedule would be that run). */
export function searchableRuns(space: Pick<FaultSpace, 'kinds'>, runs: number): number {
  return space.kinds.length === 0 ? Math.min(1, runs) : runs;
}

/** The answer when no schedule broke the invariant. */
export function nothingFound(options: Pick<ExplorerOptions, 'baseSeed'>, summary: SearchSummary): ExploreResult {
  return {
    found: false,
    seed: options.baseSeed,
    faults: [],
    actions: [],
    runs: summary.runs,
    verdict: null,
    index: null,
    summary,
  };
}

/**
 * The schedule explorer in one thread: tries schedules 0, 1, 2... (the scenario as written,
 * then random seeds and faults) until one breaks the invariant, then shrinks it to a short
 * list of learner actions that still breaks it ("find the bug for me"). Workers split the same
 * search into batches (src/ui/explorer) and find the same answer: the lowest failing index.
 */
export function explore(options: ExplorerOptions & { runs: number }): ExploreResult {
  const batch = searchBatch(options, 0, searchableRuns(options.space, options.runs));
  if (batch.failing === null) return nothingFound(options, searchSummary(options.space, batch.runs, batch.cut));
  return shrinkSchedule(options, batch.failing, searchSummary(options.space, batch.runs));
}
