import { nextCombination } from './combinations';
import { faultChoices, scheduleCount, scheduleFaultIndices, type ExhaustiveBounds } from './exhaustive';
import { faultActionsInOrder, type Fault, type FaultAction, type FaultSpace } from './faults';
import { quietTarget } from './reductions';
import type { Verdict } from './verdict';

/** One run as an exhaustive search needs it: the verdicts, and when each process last acted. */
export interface ExhaustiveRun {
  verdicts: readonly Verdict[];
  /** When each process last did something (its last trace event); the quiet reduction reads it. */
  lastActiveMs: ReadonlyMap<string, number>;
}

export interface ExhaustiveOptions {
  invariant: string;
  /** The scenario's seed: an exhaustive search varies faults, never the seed. */
  baseSeed: number;
  space: FaultSpace;
  bounds: ExhaustiveBounds;
  run: (seed: number, actions: readonly FaultAction[]) => ExhaustiveRun;
  /** The reduction is on unless turned off (its test compares with the full enumeration). */
  reductions?: { quiet?: boolean };
  /** Go on past a break, to list every break within the bounds (the reductions' tests do). */
  stopAtBreak?: boolean;
  /** Told of each schedule: its fault indices (into `choices`) and what became of it. */
  onSchedule?: (picked: readonly number[], outcome: ScheduleOutcome) => void;
}

/** What became of one schedule: it ran and broke or held, or a reduction covered it. */
export type ScheduleOutcome = 'broke' | 'held' | 'quiet';

/** How far a search got: every schedule below `done` was run or covered by a reduction. */
export interface ExhaustiveProgress {
  done: number;
  total: number;
  /** Schedules actually run. */
  ran: number;
  /** Skipped: the last fault hits a target with nothing left to do (same state as at the previous grid point). */
  byQuiet: number;
  /** Runs a budget (event cap, script cap) stopped: judged on what they reached. */
  cut: number;
}

export interface ExhaustiveResult {
  /** A break within the bounds, with the fewest faults there are (breadth-first). */
  found: boolean;
  /** Every schedule within the bounds was run or covered: the claim "no break exists" holds. */
  complete: boolean;
  faults: Fault[];
  actions: FaultAction[];
  seed: number;
  index: number | null;
  verdict: Verdict | null;
  progress: ExhaustiveProgress;
  bounds: ExhaustiveBounds;
  /** The processes faults were aimed at (links and failover groups aside), to name the bounds. */
  targets: readonly string[];
}

/** Which schedules a search walks: [from, to) of one layer, and the runs of their prefixes. */
export interface ExhaustiveRange {
  from: number;
  to: number;
  /**
   * When each process last acted in the run of each schedule of one fault fewer (keyed by its
   * fault indices, `1,7`), as other workers found them: the quiet reduction reads them.
   */
  prefixes: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/**
 * An exhaustive search, run a slice at a time (`advance`) so that a worker can report progress
 * and stop between slices. It walks every schedule, or one range of them (several workers
 * share a layer of schedules: exhaustiveCoordinator.ts). Schedules go breadth-first: the scenario as written, every single
 * fault in time order, every pair, every triple. The first that breaks the invariant is the
 * answer, with the fewest faults by construction; when none does, the answer is the bounded
 * claim that no break exists within `bounds`.
 */
export class ExhaustiveSearch {
  readonly choices: Fault[];
  readonly total: number;
  private done = 0;
  private ran = 0;
  private byQuiet = 0;
  private cut = 0;
  private found: { index: number; faults: Fault[]; verdict: Verdict } | null = null;
  /** The fault indices of schedule `done`, walked in place. */
  private picked: number[] = [];
  /** When each process last acted, for schedules of fewer than K faults (the prefixes of later ones). */
  private readonly lastActive: Map<string, ReadonlyMap<string, number>>;
  /** The schedules of fewer than K faults this search ran itself, for the next layer's workers. */
  readonly prefixesFound = new Map<string, ReadonlyMap<string, number>>();
  private readonly end: number;
  /** It walks every schedule (a claim that none breaks is its to make), not one range. */
  private readonly whole: boolean;

  constructor(
    private readonly options: ExhaustiveOptions,
    range?: ExhaustiveRange,
  ) {
    this.choices = faultChoices(options.space, options.bounds);
    this.total = scheduleCount(this.choices.length, options.bounds.maxFaults);
    this.done = range?.from ?? 0;
    this.end = range?.to ?? this.total;
    this.lastActive = new Map(range?.prefixes);
    this.whole = range === undefined;
  }

  get finished(): boolean {
    return this.found !== null || this.done >= this.end;
  }

  /** Runs or skips schedules until `maxRuns` have run, a break is found, or none are left. */
  advance(maxRuns: number): void {
    const { quiet = true } = this.options.reductions ?? {};
    const { onSchedule, stopAtBreak = true } = this.options;
    let runs = 0;
    while (!this.finished && runs < maxRuns) {
      const picked = this.current();
      const faults = picked.map((i) => this.choices[i]!);
      this.done++;
      if (
        quiet &&
        quietTarget(faults, this.lastActive.get(key(picked.slice(0, -1))) ?? null, this.options.bounds.gridMs)
      ) {
        this.byQuiet++;
        onSchedule?.(picked, 'quiet');
        continue;
      }
      runs++;
      this.ran++;
      const run = this.options.run(this.options.baseSeed, faultActionsInOrder(faults));
      const wasCut = run.verdicts.some((v) => v.invariant === 'run-completes' && !v.holds);
      if (wasCut) this.cut++;
      const verdict = run.verdicts.find((v) => v.invariant === this.options.invariant);
      const broke = verdict?.holds === false;
      onSchedule?.(picked, broke ? 'broke' : 'held');
      if (broke && stopAtBreak) this.found = { index: this.done - 1, faults, verdict };
      if (!wasCut && picked.length < this.options.bounds.maxFaults) {
        this.lastActive.set(key(picked), run.lastActiveMs);
        this.prefixesFound.set(key(picked), run.lastActiveMs);
      }
    }
  }

  /** The fault indices of schedule `done`: the next subset, or the first of the next size. */
  private current(): number[] {
    if (this.done === 0) return [];
    if (this.picked.length === 0 || !nextCombination(this.picked, this.choices.length)) {
      this.picked = scheduleFaultIndices(this.choices.length, this.options.bounds.maxFaults, this.done);
    }
    return [...this.picked];
  }

  get progress(): ExhaustiveProgress {
    return { done: this.done, total: this.total, ran: this.ran, byQuiet: this.byQuiet, cut: this.cut };
  }

  result(): ExhaustiveResult {
    const found = this.found;
    return {
      found: found !== null,
      complete: found === null && this.done >= this.total && this.whole,
      faults: found?.faults ?? [],
      actions: faultActionsInOrder(found?.faults ?? []),
      seed: this.options.baseSeed,
      index: found?.index ?? null,
      verdict: found?.verdict ?? null,
      progress: this.progress,
      bounds: this.options.bounds,
      targets: this.options.space.processes,
    };
  }
}

function key(picked: readonly number[]): string {
  return picked.join(',');
}

/** An exhaustive search run to its end or its budget of runs, in one thread. */
export function exhaustive(options: ExhaustiveOptions & { maxRuns?: number }): ExhaustiveResult {
  const search = new ExhaustiveSearch(options);
  search.advance(options.maxRuns ?? Infinity);
  return search.result();
}
