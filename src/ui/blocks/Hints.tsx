import { InlineText } from './InlineText';

/** Hints revealed one at a time, in the author's order, each on request. */
export function Hints({
  hints,
  shown,
  onShowNext,
  disabled,
}: {
  hints: string[];
  shown: number;
  onShowNext: () => void;
  disabled?: boolean;
}) {
  if (!hints.length) return null;
  const visible = hints.slice(0, shown);
  return (
    <div className="hints">
      {visible.length > 0 && (
        <ol className="hint-list" aria-label="Hints">
          {visible.map((hint, i) => (
            <li key={i}>
              <span className="hint-label">Hint {i + 1}:</span> <InlineText text={hint} />
            </li>
          ))}
        </ol>
      )}
      {shown < hints.length && !disabled && (
        <button type="button" className="button button-quiet" onClick={onShowNext}>
          {shown === 0 ? 'Show a hint' : 'Show another hint'} ({shown + 1} of {hints.length})
        </button>
      )}
    </div>
  );
}
