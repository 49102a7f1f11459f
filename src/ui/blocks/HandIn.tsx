import { useState } from 'react';
import { SUBMISSION_KIND, submissionFileName, submissionText, type Submission } from '../../lessons/submission';
import { GRADE_HREF } from '../routing/route';
import { downloadText } from './download';

const NAME_KEY = 'lockstep.learner-name.v1';

function storedName(): string {
  try {
    return window.localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function storeName(name: string): void {
  try {
    window.localStorage.setItem(NAME_KEY, name);
  } catch {
    // Storage off: the name is asked again next time.
  }
}

interface Props {
  lesson: string;
  block: string;
  recipe: string;
  /** What the block says of the recipe now: kept in the file, and only compared by the grader. */
  claimed: Submission['claimed'];
}

/**
 * Hands a workbench in: a file with the learner's name and recipe, to send to their instructor,
 * whose grading page runs it again. Nothing is sent from here.
 */
export function HandIn({ lesson, block, recipe, claimed }: Props) {
  const [name, setName] = useState(storedName);
  const [problem, setProblem] = useState('');
  const [saved, setSaved] = useState('');
  const save = () => {
    const learner = name.trim();
    if (!learner) {
      setProblem('Write your name first: your instructor sees it beside your grade.');
      return;
    }
    storeName(learner);
    const submission: Submission = { kind: SUBMISSION_KIND, version: 1, lesson, block, learner, recipe, claimed };
    const file = submissionFileName(submission);
    downloadText(file, submissionText(submission), 'application/json');
    setProblem('');
    setSaved(`Saved ${file}. Send it to your instructor.`);
  };
  return (
    <details className="workbench-hand-in">
      <summary>Hand in to your instructor</summary>
      <p>
        Saves a file with your name and the recipe in the editor. Your instructor’s{' '}
        <a href={GRADE_HREF}>grading page</a> runs it again with the same search, so the grade is what your recipe does.
      </p>
      <div className="workbench-hand-in-row">
        <label>
          Your name{' '}
          <input
            type="text"
            value={name}
            autoComplete="name"
            onChange={(e) => setName(e.target.value)}
            aria-describedby={problem ? `${block}-hand-in-problem` : undefined}
          />
        </label>
        <button type="button" className="button" onClick={save}>
          Save submission file
        </button>
      </div>
      {problem && (
        <p id={`${block}-hand-in-problem`} role="alert">
          {problem}
        </p>
      )}
      {saved && !problem && <p role="status">{saved}</p>}
    </details>
  );
}
