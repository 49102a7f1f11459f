import type { Fault } from '../check/faults';
import type { FaultAction } from '../check/explorer';
import { parseScenario } from '../scenario/text/parse';
import type { Scenario } from '../scenario/schema/schema';
import { judgeFix, type FixBounds, type QuietRun, type WorkbenchExplorer } from './judgeFix';
import type { Submission } from './submission';
import type { Lesson } from './types';

/** A workbench block learners can hand in: where it is, and what its fix must withstand. */
export interface Assignment extends FixBounds {
  lesson: string;
  lessonTitle: string;
  block: string;
}

/** Every workbench block of `lessons`, by `<lesson slug>/<block id>`. */
export function assignmentsOf(lessons: readonly Pick<Lesson, 'frontmatter' | 'blocks'>[]): Map<string, Assignment> {
  const out = new Map<string, Assignment>();
  for (const lesson of lessons) {
    for (const block of lesson.blocks) {
      if (block.kind !== 'workbench') continue;
      const slug = lesson.frontmatter.slug;
      out.set(`${slug}/${block.id}`, {
        lesson: slug,
        lessonTitle: lesson.frontmatter.title,
        block: block.id,
        break: block.spec.break,
        runs: block.spec.runs,
      });
    }
  }
  return out;
}

/** What a re-run found: passed, failed (with the run that breaks it, if one does), or not gradable. */
export type Grade =
  | { result: 'passed'; detail: string; runs: number }
  | {
      result: 'failed';
      detail: string;
      runs: number;
      counterexample: { scenario: Scenario; seed: number; faults: Fault[]; actions: FaultAction[] } | null;
    }
  | { result: 'invalid'; detail: string; runs: 0 };

/** A grade with what the learner's page had said, when that differs from what the recipe does. */
export type GradedSubmission = Grade & { claimNote: string | null };

/**
 * Grades a submission by re-running it: the assignment's bounds come from this course, never
 * from the submission, and the learner's claim is only compared. Deterministic: the same
 * recipe gets the same grade on any machine, as it got the same verdict on the learner's page.
 */
export async function gradeSubmission(
  submission: Submission,
  assignments: ReadonlyMap<string, Assignment>,
  explore: WorkbenchExplorer,
  run: QuietRun,
): Promise<GradedSubmission> {
  const grade = await gradeRecipe(submission, assignments, explore, run);
  const saidFixed = submission.claimed === 'fixed';
  const claimNote =
    saidFixed && grade.result !== 'passed'
      ? 'handed in as Fixed, which this re-run does not confirm: the file may have been edited, or made by another version of the course'
      : null;
  return { ...grade, claimNote };
}

async function gradeRecipe(
  submission: Submission,
  assignments: ReadonlyMap<string, Assignment>,
  explore: WorkbenchExplorer,
  run: QuietRun,
): Promise<Grade> {
  const assignment = assignments.get(`${submission.lesson}/${submission.block}`);
  if (!assignment) {
    return {
      result: 'invalid',
      detail: `no workbench "${submission.block}" in a lesson "${submission.lesson}" of this course: was it handed in for another course?`,
      runs: 0,
    };
  }
  const parsed = parseScenario(submission.recipe, { file: 'recipe', line: 1 });
  if (!parsed.ok) {
    const first = parsed.diagnostics[0]!;
    return {
      result: 'failed',
      detail: `the recipe does not load: line ${first.line}: ${first.message}`,
      runs: 0,
      counterexample: null,
    };
  }
  const name = assignment.break.replace(/-/g, ' ');
  const judged = await judgeFix(parsed.scenario, assignment, explore, run);
  if (judged.fixed)
    return {
      result: 'passed',
      detail: `no run broke ${name} in ${judged.search.summary.runs.toLocaleString('en')} runs, and the recipe passes its own checks`,
      runs: judged.runs,
    };
  if (judged.why === 'own-checks')
    return {
      result: 'failed',
      detail: `no run broke ${name}, but ${judged.problems[0]}`,
      runs: judged.runs,
      counterexample: null,
    };
  const { seed, faults, actions, summary } = judged.search;
  const faultWords =
    faults.length === 0 ? 'as written' : `with ${faults.length} fault${faults.length === 1 ? '' : 's'}`;
  return {
    result: 'failed',
    detail: `breaks ${name}: seed ${seed} ${faultWords}, found within ${summary.runs.toLocaleString('en')} runs`,
    runs: judged.runs,
    counterexample: { scenario: parsed.scenario, seed, faults, actions },
  };
}
