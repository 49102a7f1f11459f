import type { Verdict } from '../../check/verdict';
import type { WorkbenchSpec } from '../../lessons/blocks/workbench';
import { unlistedBreaks, unmetExpectations } from '../../scenario/running/expectations';
import type { Scenario } from '../../scenario/schema/schema';
import type { SearchOutcome } from '../explorer/coordinator';

const PREFIX = 'lockstep.workbench-block.v1:';

/** The learner's edit of a workbench block, or null (none, or storage off or broken). */
export function loadBlockWork(storage: Pick<Storage, 'getItem'> | null, key: string): string | null {
  try {
    const raw = storage?.getItem(PREFIX + key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { text?: unknown };
    return typeof parsed.text === 'string' ? parsed.text : null;
  } catch {
    return null;
  }
}

/** Keeps the edit (null: back to the recipe, nothing kept). False when the browser refused. */
export function saveBlockWork(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null,
  key: string,
  text: string | null,
): boolean {
  try {
    if (text === null) storage?.removeItem(PREFIX + key);
    else storage?.setItem(PREFIX + key, JSON.stringify({ text }));
    return storage !== null;
  } catch {
    return false;
  }
}

export type FixedState = { state: 'open' | 'broken' | 'checking' | 'failing' | 'fixed'; text: string };

/**
 * Whether the learner's version is fixed: the explorer searched this very scenario without a
 * break, and its quiet run (`verdicts`, null until it is on show) meets its own `expect`.
 * Never "safe": the search had a budget, and says so.
 */
export function fixedState(
  scenario: Scenario | null,
  search: { scenario: Scenario; outcome: SearchOutcome } | null,
  verdicts: readonly Verdict[] | null,
  spec: Pick<WorkbenchSpec, 'break' | 'runs'>,
): FixedState {
  const name = spec.break.replace(/-/g, ' ');
  const searched = scenario !== null && search !== null && JSON.stringify(search.scenario) === JSON.stringify(scenario);
  if (!searched)
    return {
      state: 'open',
      text: `Not fixed yet. Break it, then change the recipe: the block says Fixed when your version passes its checks and the explorer finds no run that breaks ${name} in ${spec.runs.toLocaleString('en')} runs.`,
    };
  if (search.outcome.state === 'found')
    return { state: 'broken', text: `Not fixed: the explorer still breaks ${name} in this version.` };
  if (search.outcome.state !== 'not-found')
    return { state: 'open', text: 'Not fixed yet: the last search did not finish.' };
  if (verdicts === null)
    return { state: 'checking', text: `No run broke ${name}; running your version to check its own expect…` };
  const problems = [
    ...unmetExpectations(scenario, verdicts),
    ...unlistedBreaks(scenario, verdicts).map((v) => `it breaks ${v.invariant} as written`),
  ];
  if (problems.length) return { state: 'failing', text: `Not fixed: no run broke ${name}, but ${problems[0]}.` };
  return {
    state: 'fixed',
    text: `Fixed: your version passes its checks, and the explorer found no run that breaks ${name} in ${search.outcome.result.summary.runs.toLocaleString('en')} runs. A search can miss a bug, so read your fix once more.`,
  };
}
