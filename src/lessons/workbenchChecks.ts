import { exhaustive, type ExhaustiveResult } from '../check/exhaustiveSearch';
import type { Diagnostic } from '../scenario/diagnostic';
import { exhaustiveExplorer } from '../scenario/running/exhaustiveExplore';
import { describeFault } from '../scenario/text/describeFault';
import { exploreScenario } from '../scenario/running/explore';
import type { InvariantName, Scenario } from '../scenario/schema/schema';
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
 * Break it's other mode, "Every schedule up to K faults", at the bounds it opens with: every
 * schedule of one fault, at every 100 ms step of the scenario's window, of every kind that
 * applies, on every target. Run to the end (no budget), so "no break" is a bounded proof.
 */
export type WorkbenchProver = (scenario: Scenario, invariant: InvariantName) => Promise<ExhaustiveResult>;

/** The exhaustive search, in this thread (lessons:check; the instructor preview leaves it out). */
export const proveInProcess: WorkbenchProver = async (scenario, invariant) =>
  exhaustive(exhaustiveExplorer(scenario, { invariant, maxFaults: 1 }, await loadScriptEngine()));

/**
 * What lessons:check proves of each workbench block: the explorer breaks `break` in the recipe
 * within the block's budget (so the learner's Break it will too), finds no break in the fix
 * (so a learner who fixes it the same way sees "no run broke it"), and the fix's own `expect`
 * holds. With a prover, the exhaustive search also breaks the recipe with one fault and proves
 * that no schedule of one fault breaks the fix, so both of Break it's modes tell the learner the same.
 */
export async function checkWorkbenchBlocks(
  lessons: readonly Lesson[],
  readRef: (relPath: string) => string | undefined,
  run: ScenarioRunner,
  explore: WorkbenchExplorer = exploreInProcess,
  prove: WorkbenchProver | null = null,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const diagnostics: Diagnostic[] = [];
  let runs = 0;
  for (const lesson of lessons) {
    for (const block of lesson.blocks) {
      if (block.kind !== 'workbench') continue;
      const found = await checkBlock(lesson.file, block.spec, readRef, run, explore);
      const proved = prove ? await proveBlock(lesson.file, block.spec, readRef, prove) : { diagnostics: [], runs: 0 };
      diagnostics.push(...found.diagnostics, ...proved.diagnostics);
      runs += found.runs + proved.runs;
    }
  }
  return { diagnostics, runs };
}

/** The exhaustive half of a block's check: one fault breaks the recipe, and no schedule of one fault breaks the fix. */
async function proveBlock(
  file: string,
  spec: WorkbenchSpec,
  readRef: (relPath: string) => string | undefined,
  prove: WorkbenchProver,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const diagnostics: Diagnostic[] = [];
  const broken = await prove(spec.scenario, spec.break);
  if (!broken.found)
    diagnostics.push({
      file,
      ...spec.at.ref,
      message: `no schedule of one fault breaks ${spec.break} in ${spec.ref} (${broken.progress.total} schedules at ${broken.bounds.gridMs} ms steps), so the learner's "Every schedule up to 1 fault" would say no break exists`,
      hint: 'make the bug reachable with a single fault, or say in the lesson that it takes two',
    });
  const fixText = readRef(spec.fixed);
  const fix = fixText === undefined ? null : parseScenario(fixText, { file: spec.fixed, line: 1 });
  if (!fix?.ok) return { diagnostics, runs: broken.progress.ran };
  const held = await prove(fix.scenario, spec.break);
  if (held.found)
    diagnostics.push({
      file,
      ...spec.at.fixed,
      message: `one fault breaks ${spec.break} in the fix ${spec.fixed}: ${held.faults.map(describeFault).join(' ')} (schedule ${held.index} of ${held.progress.total})`,
      hint: `a learner whose fix is this one would be shown that break; replay with ${replayCommand(spec.fixed, held)}`,
    });
  else if (!held.complete)
    diagnostics.push({
      file,
      ...spec.at.fixed,
      message: `the exhaustive search of the fix ${spec.fixed} stopped after ${held.progress.done} of ${held.progress.total} schedules, so it proves nothing`,
      hint: 'runs that hit the event cap are judged on what they reached; shorten the scenario so every run completes',
    });
  return { diagnostics, runs: broken.progress.ran + held.progress.ran };
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
    const replay = replayCommand(spec.fixed, held);
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

/** The command that replays a break found in a lesson's scenario file, its faults as an actions file. */
function replayCommand(file: string, found: { seed: number; actions: readonly unknown[] }): string {
  return `npm run sim -- lessons/${file} --seed ${found.seed} --actions <file with ${JSON.stringify(found.actions)}>`;
}
