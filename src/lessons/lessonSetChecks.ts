import type { Diagnostic } from '../scenario/diagnostic';
import { checkAnswerReveals } from './answerRevealCheck';
import { checkClaims } from './claimsCheck';
import { checkScenarioExpectations, type ScenarioRunner } from './scenarioExpectations';
import { checkSources } from './sourcesCheck';
import type { Lesson } from './types';
import { checkWorkbenchBlocks, exploreInProcess, type WorkbenchProver } from './workbenchChecks';

/**
 * Every check of parsed lessons that needs no file system: each scenario's `expect` and budget
 * cuts, workbench blocks, claims bound to runs, sources and answers held back until a quiz is
 * answered. `lessons:check` runs it under Node, the instructor preview in the page's
 * simulation worker, so both say the same about a lesson.
 */
export async function checkLessonRuns(
  lessons: readonly Lesson[],
  text: (file: string) => string | undefined,
  readRef: (relPath: string) => string | undefined,
  run: ScenarioRunner,
  options: {
    /** Lessons left off the site (broken frontmatter) whose scenarios still run, so one error is not two. */
    unlisted?: readonly Pick<Lesson, 'file' | 'blocks'>[];
    /** Prove workbench blocks exhaustively too (lessons:check; the preview, which reruns on each keystroke, does not). */
    prove?: WorkbenchProver;
  } = {},
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const { unlisted = [], prove = null } = options;
  const { diagnostics: unmet, runs } = await checkScenarioExpectations([...lessons, ...unlisted], run);
  const workbench = await checkWorkbenchBlocks(lessons, readRef, run, exploreInProcess, prove);
  const claims = await checkClaims(lessons, text, async (scenario, actions) => {
    const { trace, verdicts } = await run(scenario, { seed: scenario.seed, actions });
    if (!trace) throw new Error('this runner keeps no trace, so claims cannot be checked');
    return { trace, verdicts };
  });
  return {
    diagnostics: [
      ...unmet,
      ...workbench.diagnostics,
      ...claims.diagnostics,
      ...checkSources(lessons),
      ...checkAnswerReveals(lessons, text),
    ],
    runs: runs + workbench.runs + claims.runs,
  };
}
