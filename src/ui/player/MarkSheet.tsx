import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { SNAP_MS } from '../../scenario/running/storyEdits';
import { formatMs } from '../../sim/time';
import './markSheet.css';
import type { MarkChange, PlayerMark } from './storyMarks';

/** The steps a stepper offers, each way: a grid step and a second, as ←/→ and Shift do on a keyboard. */
const STEPS_MS = [1000, SNAP_MS];

/** A step in seconds ("0.1 s", not "100 ms"): the sheet's values read in seconds, and the buttons stay narrow. */
const stepText = (ms: number) => `${ms / 1000} s`;

/**
 * The phone's way to edit a mark (a long-press selects it): a sheet at the bottom of the screen
 * with steppers for its time and, for a span, its length, and a button that removes it. A finger
 * cannot place a mark to the tenth of a second by dragging on a 390 px timeline; a stepper can.
 * Each press is one change, so undo takes them back one at a time. Rendered at the document's
 * end so no scrolling timeline clips it; Escape or "Done" closes it and gives focus back.
 */
export function MarkSheet({
  mark,
  onChange,
  onClose,
}: {
  mark: PlayerMark;
  onChange: (change: MarkChange) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => {
    sheet.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, []);

  const stepper = (what: 'time' | 'length', valueMs: number) => {
    const [less, more] = what === 'time' ? ['earlier', 'later'] : ['shorter', 'longer'];
    const to = (ms: number): MarkChange =>
      what === 'time'
        ? { mark: mark.key, change: 'move', toMs: Math.max(0, ms) }
        : { mark: mark.key, change: 'resize', lengthMs: Math.max(SNAP_MS, ms) };
    return (
      <div className="mark-sheet-stepper" role="group" aria-label={what === 'time' ? 'Time' : 'Length'}>
        <span className="mark-sheet-label">{what === 'time' ? 'Time' : 'Length'}</span>
        {STEPS_MS.map((step) => (
          <button
            key={`-${step}`}
            type="button"
            aria-label={`${stepText(step)} ${less}`}
            onClick={() => onChange(to(valueMs - step))}
          >
            −{stepText(step)}
          </button>
        ))}
        <output className="mark-sheet-value">{formatMs(valueMs)}</output>
        {[...STEPS_MS].reverse().map((step) => (
          <button
            key={`+${step}`}
            type="button"
            aria-label={`${stepText(step)} ${more}`}
            onClick={() => onChange(to(valueMs + step))}
          >
            +{stepText(step)}
          </button>
        ))}
      </div>
    );
  };

  return createPortal(
    <div
      ref={sheet}
      className="mark-sheet"
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <h2 id={titleId} className="mark-sheet-title">
        {mark.name}
        <span className="mark-sheet-source">{mark.source === 'learner' ? ', yours' : ', scripted'}</span>
      </h2>
      {stepper('time', mark.atMs)}
      {mark.resizable && mark.lengthMs !== null && stepper('length', mark.lengthMs)}
      <div className="mark-sheet-actions">
        <button type="button" onClick={() => onChange({ mark: mark.key, change: 'remove' })}>
          Remove {mark.name}
        </button>
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </div>,
    document.body,
  );
}
