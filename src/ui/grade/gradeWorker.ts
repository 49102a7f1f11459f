import '../zodWithoutEval';
import * as Comlink from 'comlink';
import { gradeSubmission, type Assignment, type GradedSubmission } from '../../lessons/grading';
import type { Submission } from '../../lessons/submission';
import { exploreInProcess } from '../../lessons/workbenchChecks';
import { luaWasmUrl } from '../../redis/lua/wasmUrl';
import { loadScriptEngine, runScenario } from '../../scenario/running/run';

/** The grader's worker: re-runs a submission's recipe and its explorer search off the page's thread. */
export interface GradeWorkerApi {
  grade(submission: Submission, assignments: [string, Assignment][]): Promise<GradedSubmission>;
}

// Loaded once with the bundled VM's URL; the explorer and the run below then share it.
const scripts = loadScriptEngine({ wasmUrl: luaWasmUrl });

const api: GradeWorkerApi = {
  async grade(submission, assignments) {
    await scripts;
    return gradeSubmission(submission, new Map(assignments), exploreInProcess, (scenario) =>
      runScenario(scenario, { seed: scenario.seed }),
    );
  },
};

Comlink.expose(api);
