import type { Verdict } from '../check/verdict';
import type { Action } from '../scenario/schema/actionSchema';
import type { Diagnostic } from '../scenario/diagnostic';
import { unlistedBreaks, unmetExpectations } from '../scenario/running/expectations';
import type { Scenario } from '../scenario/schema/schema';
import { scriptFailures, STOPPED } from '../scenario/running/scriptFailures';
import type { EndReason } from '../scenario/running/simulation';
import type { RunTrace } from '../check/runMeasures';
import type { Lesson } from './types';

/**
 * Runs one scenario to the end; the real one is `runScenarioTrace` from src/scenario/running/run.ts. A
 * runner that returns no `trace` cannot check a lesson's claims (tests' stand-ins).
 */
export type ScenarioRunner = (
  scenario: Scenario,
  options?: { seed?: number; actions?: readonly Action[] },
) => Promise<{ verdicts: Verdict[]; trace?: RunTrace; ended?: EndReason | null }>;

/**
 * A runner's way to say a run was stopped from outside (the page's watchdog stops a run that
 * computes for seconds): the scenario runs away, which is the lesson's problem, not a crash.
 */
export class RunStopped extends Error {}

/**
 * Runs every scenario block of every lesson headless and reports each `expect` that did not
 * come true at the block's opening fence, so "CI solves every lesson". Compare blocks are left
 * out: their two sides deliberately change the scenario, so its `expect` need not hold there.
 */
export async function checkScenarioExpectations(
  lessons: readonly Pick<Lesson, 'file' | 'blocks'>[],
  run: ScenarioRunner,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const diagnostics: Diagnostic[] = [];
  let runs = 0;
  for (const lesson of lessons) {
    for (const block of lesson.blocks) {
      if (block.kind !== 'scenario') continue;
      const where = { file: lesson.file, line: block.line, col: 1 };
      const name = block.ref ? `scenario '${block.scenario.id}' (${block.ref})` : `scenario '${block.scenario.id}'`;
      runs++;
      try {
        const { verdicts, ended, trace } = await run(block.scenario, { seed: block.scenario.seed });
        const replay = `seed ${block.scenario.seed}; replay with npm run sim -- ${lesson.file}#${block.scenario.id} --seed ${block.scenario.seed}`;
        for (const message of unmetExpectations(block.scenario, verdicts)) {
          diagnostics.push({ ...where, message: `${name}: ${message}`, hint: replay });
        }
        // A run a budget cut short (events, script instructions) was never judged to its end,
        // whatever expect says or omits. Reaching the horizon is not a cut: a lesson may mean it.
        const cut =
          ended === 'event-cap' || ended === 'script-cap'
            ? verdicts.find((v) => v.invariant === 'run-completes' && !v.holds)
            : undefined;
        if (cut && !block.scenario.expect.some((e) => e.invariant === 'run-completes')) {
          diagnostics.push({
            ...where,
            message: `${name}: the run was cut short, so nothing after ${cut.atMs} ms was checked: ${cut.explanation}`,
            hint: `make the scenario smaller (fewer clients, steps or retries, a shorter horizon), or if the lesson means it, add { invariant: run-completes, outcome: violated }; ${replay}`,
          });
        }
        // A script the engine stopped by force (its budget, memory, stack) is a problem the run
        // may not show as a verdict: the client just got an error. The workbench explains the
        // same failures in its editor (scriptFailures.ts).
        for (const failure of trace ? scriptFailures(trace).filter((f) => STOPPED.has(f.kind)) : []) {
          const times =
            failure.count > 1
              ? ` (${failure.count} times, sent by ${failure.senders.join(', ')})`
              : ` (sent by ${failure.senders.join(', ')})`;
          diagnostics.push({
            ...where,
            message: `${name}: ${failure.message}${times}`,
            hint: `${failure.hint}; ${replay}`,
          });
        }
        // A learner reads every verdict the player shows, so a break the lesson does not name is
        // an error, not a note: the lesson either means it (say so) or its scenario is wrong.
        for (const v of unlistedBreaks(block.scenario, verdicts).filter((b) => b !== cut)) {
          diagnostics.push({
            ...where,
            message: `${name}: expect says only what holds, but the quiet run also breaks ${v.invariant} at ${v.atMs} ms`,
            hint: `if the lesson means it, add { invariant: ${v.invariant}, outcome: violated }; if the quiet run should be fine, add { invariant: all, outcome: holds } and fix the scenario; ${replay}`,
          });
        }
      } catch (error) {
        if (error instanceof RunStopped) {
          diagnostics.push({
            ...where,
            message: `${name}: ${error.message}`,
            hint: 'a script that does work the simulator cannot count and cut short, such as comparing or copying very long strings many times over; remove it or make its strings shorter',
          });
          continue;
        }
        diagnostics.push({
          ...where,
          message: `${name} crashed the simulator: ${error instanceof Error ? error.message : String(error)}`,
          hint: 'this is a bug in Lockstep or an unsupported scenario; please report it',
        });
      }
    }
  }
  return { diagnostics, runs };
}
