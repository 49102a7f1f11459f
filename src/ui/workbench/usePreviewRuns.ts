import { useEffect, useState } from 'react';
import { checkLessonRuns } from '../../lessons/lessonSetChecks';
import { RunStopped, type ScenarioRunner } from '../../lessons/scenarioExpectations';
import type { Lesson } from '../../lessons/types';
import type { Diagnostic } from '../../scenario/diagnostic';
import { pageSimulator } from '../worker/playerSimulator';

/** What the preview's runs found: nothing yet, running, or the problems (empty: all well). */
export type PreviewRuns =
  { state: 'idle' } | { state: 'running' } | { state: 'done'; diagnostics: Diagnostic[]; runs: number };

/** Quiet time after the last keystroke before the lesson's scenarios run again. */
const SETTLE_MS = 600;

class Superseded extends Error {}

/**
 * Runs a previewed lesson's scenarios as `lessons:check` does (the same checker,
 * lessonSetChecks.ts), in the page's simulation worker: expectations, budget cuts, workbench
 * blocks, claims, sources and held-back answers. A run the worker's watchdog stops is the
 * lesson's runaway script, said so at its block. Typing again drops the runs under way.
 */
export function usePreviewRuns(
  lesson: Lesson | null,
  text: string,
  readRef: (path: string) => string | undefined,
): PreviewRuns {
  const [found, setFound] = useState<PreviewRuns>({ state: 'idle' });
  useEffect(() => {
    if (!lesson) {
      setFound({ state: 'idle' });
      return;
    }
    let live = true;
    setFound({ state: 'running' });
    const run: ScenarioRunner = async (scenario, options) => {
      if (!live) throw new Superseded();
      const outcome = await pageSimulator(scenario).run({
        seed: options?.seed ?? scenario.seed,
        fencing: scenario.resource.fencing,
        actions: [...(options?.actions ?? [])],
      });
      if (outcome.ok)
        return { verdicts: outcome.value.verdicts, trace: outcome.value.events, ended: outcome.value.ended };
      if (outcome.why === 'stopped') {
        const what = outcome.whole
          ? `the run computed for more than ${outcome.budgetMs / 1000} s in all`
          : `one step of the run computed for more than ${outcome.budgetMs / 1000} s without ending`;
        throw new RunStopped(`${what} and was stopped, so nothing in it was checked`);
      }
      throw outcome.why === 'failed' ? new Error(outcome.message) : new Superseded();
    };
    const timer = setTimeout(() => {
      void checkLessonRuns([lesson], () => text, readRef, run).then(
        (checked) => live && setFound({ state: 'done', ...checked }),
        () => undefined,
      );
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [lesson, text, readRef]);
  return found;
}
