import type { Diagnostic } from '../scenario/diagnostic';
import { exploreScenario } from '../scenario/running/explore';
import { parseScenario } from '../scenario/text/parse';
import { loadScriptEngine } from '../scenario/running/run';
import { WORKBENCH_EXPLORER_SEED, type WorkbenchSpec } from './blocks/workbench';
import type { ScenarioRunner } from './scenarioExpectations';
import type { Lesson } from './types';
import { judgeFix, type WorkbenchExplorer } from './judgeFix';

export type { WorkbenchExplorer } from './judgeFix';

/** The real explorer, in this thread. */
export const exploreInProcess: WorkbenchExplorer = async (scenario, invariant, runs) =>
  exploreScenario(scenario, { invariant, runs, explorerSeed: WORKBENCH_EXPLORER_SEED }, await loadScriptEngine());

/**
 * What lessons:check proves of each workbench block: the explorer breaks `break` in the recipe
 * within the block's budget (so the learner's Break it will too), finds no break in the fix
 * (so a learner who fixes it the same way sees "no run broke it"), and the fix's own `expect` holds.
 */
export async function checkWorkbenchBlocks(
  lessons: readonly Lesson[],
  readRef: (relPath: string) => string | undefined,
  run: ScenarioRunner,
  explore: WorkbenchExplorer = exploreInProcess,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const diagnostics: Diagnostic[] = [];
  let runs = 0;
  for (const lesson of lessons) {
    for (const block of lesson.blocks) {
      if (block.kind !== 'workbench') continue;
      const found = await checkBlock(lesson.file, block.spec, readRef, run, explore);
      diagnostics.push(...found.diagnostics);
      runs += found.runs;
    }
  }
  return { diagnostics, runs };
}

async function checkBlock(
  file: string,
  spec: WorkbenchSpec,
  readRef: (relPath: string) => string | undefined,
  run: ScenarioRunner,
  explore: WorkbenchExplorer,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const at = (place: keyof WorkbenchSpec['at']) => ({ file, ...spec.at[place] });
  const name = spec.break;
  const searched = `${spec.runs} runs, explorer seed ${WORKBENCH_EXPLORER_SEED}`;
  const diagnostics: Diagnostic[] = [];
  const broken = await explore(spec.scenario, spec.break, spec.runs);
  if (!broken.found) {
    diagnostics.push({
      ...at('ref'),
      message: `the explorer found no run of ${spec.ref} that breaks ${name} (${searched}), so the learner's Break it would not either`,
      hint: 'make the bug reachable with the faults the explorer tries, or give the block a bigger runs: budget',
    });
  }
  const fixText = readRef(spec.fixed);
  const fix = fixText === undefined ? null : parseScenario(fixText, { file: spec.fixed, line: 1 });
  if (!fix?.ok) return { diagnostics, runs: broken.runs };
  const judged = await judgeFix(fix.scenario, spec, explore, async (scenario) =>
    run(scenario, { seed: scenario.seed }),
  );
  const held = judged.search;
  if (held.found) {
    const replay = `npm run sim -- lessons/${spec.fixed} --seed ${held.seed} --actions <file with ${JSON.stringify(held.actions)}>`;
    diagnostics.push({
      ...at('fixed'),
      message: `the explorer breaks ${name} in the fix ${spec.fixed} after ${held.summary.runs} runs (${searched}): seed ${held.seed} with ${held.faults.length} fault${held.faults.length === 1 ? '' : 's'}`,
      hint: `a learner who fixes it this way would be told it still breaks; replay with ${replay}`,
    });
  }
  // A fix should keep every invariant its expect names, and meet the rest of its expect.
  if (!judged.fixed && judged.why === 'own-checks')
    for (const problem of judged.problems)
      diagnostics.push({
        ...at('fixed'),
        message: `the fix ${spec.fixed}: ${problem}`,
        hint: `replay with npm run sim -- lessons/${spec.fixed}`,
      });
  return { diagnostics, runs: broken.runs + judged.runs };
}
