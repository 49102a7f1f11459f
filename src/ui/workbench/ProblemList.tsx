import type { Diagnostic } from '../../scenario/diagnostic';

/**
 * The scenario's problems under the editor, each as `line:col: message (hint)` like
 * `lessons:check` prints them: the same words as in the editor's margin, readable without a
 * mouse and announced when they change.
 */
export function ProblemList({ problems, checking }: { problems: readonly Diagnostic[]; checking: boolean }) {
  if (checking) return <p className="workbench-status" role="status" aria-live="polite">Checking…</p>;
  if (!problems.length) {
    return (
      <p className="workbench-status workbench-status-ok" role="status" aria-live="polite">
        No problems: ready to run.
      </p>
    );
  }
  return (
    <div className="workbench-problems" role="status" aria-live="polite">
      <p className="workbench-status workbench-status-bad">
        {problems.length} problem{problems.length === 1 ? '' : 's'}
      </p>
      <ul aria-label="Problems">
        {problems.map((d, i) => (
          <li key={i}>
            <code>
              {d.line}:{d.col}
            </code>{' '}
            {d.severity === 'warning' ? 'warning: ' : ''}
            {d.message}
            {d.hint && <span className="muted"> ({d.hint})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
