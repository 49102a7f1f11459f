import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../scenario/running/run';
import { buildCatalog } from './catalog';
import { assignmentsOf, gradeSubmission } from './grading';
import { readLessonSources } from './sources';
import { readSubmission, SUBMISSION_KIND, submissionFileName, submissionText, type Submission } from './submission';
import { exploreInProcess } from './workbenchChecks';

const assignments = assignmentsOf(buildCatalog(readLessonSources('lessons')).lessons);
const recipe = (name: string) => readFileSync(`lessons/scenarios/${name}.yaml`, 'utf8');
const fixed = recipe('clinic-plain-del-fixed');
const quietRun = (scenario: Parameters<typeof runScenario>[0]) => runScenario(scenario, { seed: scenario.seed });

function submission(learner: string, text: string, claimed: Submission['claimed']): Submission {
  return {
    kind: SUBMISSION_KIND,
    version: 1,
    lesson: 'clinic-plain-del',
    block: 'clinic-plain-del-workbench',
    learner,
    recipe: text,
    claimed,
  };
}

/** What the grader makes of a submission file's text, end to end. */
async function grade(file: string) {
  const read = readSubmission(file);
  if (!read.ok) throw new Error(read.message);
  return gradeSubmission(read.submission, assignments, exploreInProcess, quietRun);
}

describe('grading workbench submissions by re-running them', () => {
  it('knows every workbench block of the course as an assignment, with its own bounds', () => {
    expect(assignments.get('clinic-plain-del/clinic-plain-del-workbench')).toMatchObject({
      lessonTitle: expect.any(String),
      break: 'released-by-owner',
      runs: 1000,
    });
    expect(assignments.size).toBe(9);
  });

  it('grades a folder of five: two fixes pass, the recipe as given and a fix that fails its own expect fail, and a tampered claim fails with a note', async () => {
    const otherFix = fixed.replace(
      /local held = redis\.call\('GET', KEYS\[1\]\) if held == ARGV\[1\] then return redis\.call\('DEL', KEYS\[1\]\) end return 0/g,
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end",
    );
    expect(otherFix).not.toBe(fixed);
    const ownExpectWrong = fixed.replace(
      '{ invariant: released-by-owner, outcome: holds }',
      '{ invariant: released-by-owner, outcome: violated }',
    );
    const folder = [
      submission('Ada', fixed, 'fixed'),
      submission('Grace', otherFix, 'fixed'),
      submission('Linus', recipe('clinic-plain-del'), 'broken'),
      submission('Ken', ownExpectWrong, 'failing'),
      // The recipe as given, with the claim edited to Fixed.
      submission('Mallory', recipe('clinic-plain-del'), 'fixed'),
    ].map(submissionText);

    const grades = await Promise.all(folder.map(grade));

    expect(grades.map((g) => g.result)).toEqual(['passed', 'passed', 'failed', 'failed', 'failed']);
    expect(grades[0]!.detail).toMatch(/no run broke released by owner in 1,000 runs/);
    expect(grades[2]!.detail).toMatch(/^breaks released by owner: seed \d+/);
    expect(grades[2]!.result === 'failed' && grades[2]!.counterexample?.seed).toEqual(expect.any(Number));
    expect(grades[3]!.detail).toMatch(/no run broke released by owner, but .*released-by-owner/);
    expect(grades.map((g) => g.claimNote !== null)).toEqual([false, false, false, false, true]);
    // Tampering changes the note, never the grade: Mallory's recipe gets Linus's.
    expect(grades[4]!.detail).toBe(grades[2]!.detail);
  }, 120_000);

  it('grades by this course’s bounds and says so when the assignment is not in it', async () => {
    const elsewhere = { ...submission('Ada', fixed, 'fixed'), block: 'another-course-block' };
    expect(await grade(submissionText(elsewhere))).toMatchObject({
      result: 'invalid',
      detail: expect.stringMatching(
        /no workbench "another-course-block" in a lesson "clinic-plain-del" of this course/,
      ),
    });
    expect(await grade(submissionText(submission('Ada', 'clients: [', 'open')))).toMatchObject({
      result: 'failed',
      detail: expect.stringMatching(/^the recipe does not load: line \d+/),
    });
  });

  it('refuses what is not a submission, saying what to do', () => {
    expect(readSubmission('hello')).toEqual({ ok: false, message: expect.stringMatching(/not JSON.*Hand in button/) });
    expect(readSubmission('{"run": 1}')).toEqual({
      ok: false,
      message: expect.stringMatching(/^not a submission: JSON without "kind"/),
    });
    expect(readSubmission(JSON.stringify({ ...submission('', fixed, 'fixed') }))).toEqual({
      ok: false,
      message: expect.stringMatching(/^a damaged submission: learner: .*hand it in again/),
    });
    expect(submissionFileName({ lesson: 'clinic-plain-del', learner: 'Ada Lovelace!' })).toBe(
      'clinic-plain-del--ada-lovelace.json',
    );
  });
});
