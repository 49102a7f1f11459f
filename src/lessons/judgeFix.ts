import type { ExploreResult } from '../check/explorer';
import type { Verdict } from '../check/verdict';
import { unlistedBreaks, unmetExpectations } from '../scenario/running/expectations';
import type { InvariantName, Scenario } from '../scenario/schema/schema';

/** Searches a scenario as the page's Break it does (same seed, same budget, same answer). */
export type WorkbenchExplorer = (scenario: Scenario, invariant: InvariantName, runs: number) => Promise<ExploreResult>;

/** Runs a scenario once as written (its own seed, no faults) and answers its verdicts. */
export type QuietRun = (scenario: Scenario) => Promise<{ verdicts: readonly Verdict[] }>;

/** What a workbench block asks of a fix: no run that breaks `break` within `runs`. */
export interface FixBounds {
  break: InvariantName;
  runs: number;
}

/**
 * Whether a recipe fixes a workbench block, judged by what it does: the explorer searches it
 * for a run that breaks the block's invariant (the block's own budget and the workbench seed),
 * and its run as written must meet its own `expect` and break nothing it does not list.
 * The same judgement for lessons:check (the lesson's own fix), the page's Fixed and the grader.
 */
export type FixJudgement =
  | { fixed: true; search: ExploreResult; runs: number }
  | { fixed: false; why: 'breaks'; search: ExploreResult; runs: number }
  | { fixed: false; why: 'own-checks'; search: ExploreResult; problems: string[]; runs: number };

export async function judgeFix(
  scenario: Scenario,
  bounds: FixBounds,
  explore: WorkbenchExplorer,
  run: QuietRun,
): Promise<FixJudgement> {
  const search = await explore(scenario, bounds.break, bounds.runs);
  if (search.found) return { fixed: false, why: 'breaks', search, runs: search.runs };
  const { verdicts } = await run(scenario);
  const problems = [
    ...unmetExpectations(scenario, verdicts),
    ...unlistedBreaks(scenario, verdicts).map((v) => `it breaks ${v.invariant} at ${v.atMs} ms as written`),
  ];
  const runs = search.runs + 1;
  return problems.length > 0
    ? { fixed: false, why: 'own-checks', search, problems, runs }
    : { fixed: true, search, runs };
}
