import type { Diagnostic } from '../../scenario/diagnostic';

/**
 * Diagnostics as `line:col: message (hint)` list items. Given onPick, each is a button that
 * takes the editor to that line and column: a long lesson's problem is one click from its place.
 */
export function ProblemItems({
  problems,
  onPick,
}: {
  problems: readonly Diagnostic[];
  onPick?: (d: Diagnostic) => void;
}) {
  return problems.map((d, i) => {
    const words = (
      <>
        <code>
          {d.line}:{d.col}
        </code>{' '}
        {d.severity === 'warning' ? 'warning: ' : ''}
        {d.message}
        {d.hint && <span className="muted"> ({d.hint})</span>}
      </>
    );
    return (
      <li key={i}>
        {onPick ? (
          <button type="button" className="problem-go" onClick={() => onPick(d)}>
            {words}
          </button>
        ) : (
          words
        )}
      </li>
    );
  });
}

/**
 * The scenario's problems under the editor, each as `line:col: message (hint)` like
 * `lessons:check` prints them: the same words as in the editor's margin, readable without a
 * mouse and announced when they change. While a keystroke's check runs (milliseconds), the last
 * check's list stays, marked busy: the page below does not jump, and nothing is announced twice.
 */
export function ProblemList({ problems, checking }: { problems: readonly Diagnostic[]; checking: boolean }) {
  if (!problems.length) {
    return (
      <p className="workbench-status workbench-status-ok" role="status" aria-live="polite" aria-busy={checking}>
        No problems: ready to run.
      </p>
    );
  }
  return (
    <div className="workbench-problems" role="status" aria-live="polite" aria-busy={checking}>
      <p className="workbench-status workbench-status-bad">
        {problems.length} problem{problems.length === 1 ? '' : 's'}
      </p>
      <ul aria-label="Problems">
        <ProblemItems problems={problems} />
      </ul>
    </div>
  );
}

/**
 * The scripts that failed in the run on show (a loop cut by the budget, a stack overflow …),
 * at their lines in the text as it is now. They do not make the scenario invalid: the run
 * happened, and this says what stopped its scripts and what to change.
 */
export function RunProblemList({ problems }: { problems: readonly Diagnostic[] }) {
  return (
    <div className="workbench-problems" role="status" aria-live="polite">
      {problems.length > 0 && (
        <>
          <p className="workbench-status workbench-status-bad">
            The last run: {problems.length} script problem{problems.length === 1 ? '' : 's'}
          </p>
          <ul aria-label="Script problems in the last run">
            <ProblemItems problems={problems} />
          </ul>
        </>
      )}
    </div>
  );
}
