import * as Comlink from 'comlink';
import { useEffect, useRef, useState } from 'react';
import { assignmentsOf, type Assignment } from '../../lessons/grading';
import { readSubmission } from '../../lessons/submission';
import { downloadText } from '../blocks/download';
import { loadAllLessons } from '../catalog/lessonBodies';
import { readChosenFile } from '../files/readChosenFile';
import { encodeRun } from '../player/shareLink';
import { gradeCsv, type GradeRow } from './gradeCsv';
import type { GradeWorkerApi } from './gradeWorker';
import './grade.css';

/** A submission is a few kilobytes of YAML in JSON; a file far past that is not one. */
const MAX_SUBMISSION_CHARS = 200_000;

/**
 * The instructor's grading page: a folder of workbench submissions in, a table of grades out.
 * Each recipe is run again here, in this browser, with this course's own bounds, so a grade is
 * what the recipe does, not what the file says; nothing is uploaded anywhere.
 */
export function GradePage() {
  const [assignments, setAssignments] = useState<Map<string, Assignment> | null>(null);
  const [loadError, setLoadError] = useState('');
  const [rows, setRows] = useState<GradeRow[]>([]);
  const [progress, setProgress] = useState<{ done: number; of: number; skipped: number } | null>(null);
  const batch = useRef(0);

  useEffect(() => {
    loadAllLessons().then(
      (lessons) => setAssignments(assignmentsOf(lessons)),
      () =>
        setLoadError(
          'The course’s lessons could not be loaded, so there is nothing to grade against. Check the connection and reload the page.',
        ),
    );
  }, []);

  async function grade(files: readonly File[]) {
    if (!assignments || files.length === 0) return;
    const mine = ++batch.current;
    const submissions = files
      .filter((f) => f.name.toLowerCase().endsWith('.json'))
      .sort((a, b) => a.name.localeCompare(b.name));
    const skipped = files.length - submissions.length;
    setRows([]);
    setProgress({ done: 0, of: submissions.length, skipped });
    const worker = new Worker(new URL('./gradeWorker.ts', import.meta.url), {
      type: 'module',
      name: 'lockstep-grader',
    });
    const grader = Comlink.wrap<GradeWorkerApi>(worker);
    try {
      for (const [i, file] of submissions.entries()) {
        const row = await gradeFile(file, assignments, grader);
        if (batch.current !== mine) return;
        setRows((old) => [...old, row]);
        setProgress({ done: i + 1, of: submissions.length, skipped });
      }
    } finally {
      worker.terminate();
    }
  }

  const passed = rows.filter((r) => r.result === 'passed').length;
  const busy = progress !== null && progress.done < progress.of;
  return (
    <div className="grade-page">
      <h1 tabIndex={-1}>Grade workbench submissions</h1>
      <p>
        A learner hands in a workbench with its <strong>Hand in</strong> button, which saves a <code>.json</code> file
        with their recipe. Choose the files (or the folder) your learners sent you: each recipe is run again here, in
        this browser, with this course’s search budget and seed, and graded by what it does. Nothing is uploaded.
      </p>
      {loadError && <p role="alert">{loadError}</p>}
      <div className="grade-inputs">
        <label>
          Submission files
          <input
            type="file"
            multiple
            accept=".json,application/json"
            disabled={!assignments}
            onChange={(e) => void grade([...(e.target.files ?? [])])}
          />
        </label>
        <label>
          A folder of submissions
          <input
            type="file"
            {...{ webkitdirectory: '' }}
            disabled={!assignments}
            onChange={(e) => void grade([...(e.target.files ?? [])])}
          />
        </label>
      </div>
      {!assignments && !loadError && <p aria-busy="true">Loading the course’s workbenches…</p>}
      {progress && (
        <p role="status">
          {busy
            ? `Grading ${progress.done + 1} of ${progress.of}…`
            : `Graded ${progress.of}: ${passed} passed, ${progress.of - passed} did not.`}
          {progress.skipped > 0 &&
            ` ${progress.skipped} file${progress.skipped === 1 ? ' was' : 's were'} not .json and left out.`}
        </p>
      )}
      {rows.length > 0 && (
        <>
          {/* On a phone the table scrolls sideways in its frame rather than squeezing each column to a word. */}
          <div className="grade-table-frame" role="region" aria-label="Grades" tabIndex={0}>
            <table className="grade-table">
              <caption className="visually-hidden">Grades, one row per submission</caption>
              <thead>
                <tr>
                  <th scope="col">Learner</th>
                  <th scope="col">Lesson</th>
                  <th scope="col">Result</th>
                  <th scope="col">What the re-run found</th>
                  <th scope="col">Runs</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.file} className={`grade-${row.result}`}>
                    <th scope="row">
                      {row.learner}
                      <span className="grade-file">{row.file}</span>
                    </th>
                    <td>{row.lesson}</td>
                    <td className="grade-result">
                      {row.result === 'passed' ? 'Passed' : row.result === 'failed' ? 'Failed' : 'Not graded'}
                    </td>
                    <td>
                      {row.detail}
                      {row.breakingRun && (
                        <>
                          {' '}
                          <a href={row.breakingRun} target="_blank" rel="noreferrer">
                            Open the run that breaks it
                          </a>
                        </>
                      )}
                      {row.note && <p className="grade-note">{row.note}</p>}
                    </td>
                    <td>{row.runs.toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => downloadText('grades.csv', gradeCsv(rows), 'text/csv')}
          >
            Export as CSV
          </button>
        </>
      )}
    </div>
  );
}

async function gradeFile(
  file: File,
  assignments: ReadonlyMap<string, Assignment>,
  grader: Comlink.Remote<GradeWorkerApi>,
): Promise<GradeRow> {
  const unread = (detail: string): GradeRow => ({
    file: file.name,
    learner: '?',
    lesson: '?',
    result: 'invalid',
    detail,
    note: '',
    runs: 0,
    breakingRun: null,
  });
  const read = await readChosenFile(file, MAX_SUBMISSION_CHARS, 'a submission');
  if (!read.ok) return unread(read.message);
  const parsed = readSubmission(read.text);
  if (!parsed.ok) return unread(parsed.message);
  const { submission } = parsed;
  const lesson = assignments.get(`${submission.lesson}/${submission.block}`)?.lessonTitle ?? submission.lesson;
  const graded = await grader.grade(submission, [...assignments]);
  const breaking = graded.result === 'failed' ? graded.counterexample : null;
  const breakingRun = breaking
    ? `#/sandbox?run=${encodeRun({ scenarioId: breaking.scenario.id, config: { seed: breaking.seed, fencing: breaking.scenario.resource.fencing, actions: breaking.actions }, scenario: breaking.scenario })}`
    : null;
  return {
    file: file.name,
    learner: submission.learner,
    lesson,
    result: graded.result,
    detail: graded.detail,
    note: graded.claimNote ?? '',
    runs: graded.runs,
    breakingRun,
  };
}
