import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useStore } from 'zustand';
import { snapMs, SNAP_MS } from '../../scenario/storyEdits';
import { formatMs } from '../../sim/time';
import type { PlotPlace } from '../timeline/TimelineView';
import type { PlayerStore } from './playerStore';
import { playerMarks, type MarkChange, type PlayerMark } from './storyMarks';
import { MarkSheet } from './MarkSheet';

/** A second: Shift with an arrow or a bracket moves or stretches by this much. */
const BIG_STEP_MS = 1000;

/** What a key does to the focused mark, if anything. */
function keyChange(event: KeyboardEvent, mark: PlayerMark): MarkChange | null {
  const step = event.shiftKey ? BIG_STEP_MS : SNAP_MS;
  switch (event.key) {
    case 'ArrowLeft':
    case 'ArrowRight':
      return { mark: mark.key, change: 'move', toMs: Math.max(0, mark.atMs + (event.key === 'ArrowLeft' ? -step : step)) };
    case '[':
    case '{':
    case ']':
    case '}':
      if (!mark.resizable) return null;
      return { mark: mark.key, change: 'resize', lengthMs: Math.max(SNAP_MS, (mark.lengthMs ?? 0) + (event.key === '[' || event.key === '{' ? -step : step)) };
    case 'Delete':
    case 'Backspace':
      return { mark: mark.key, change: 'remove' };
    default:
      return null;
  }
}

/** How long a finger rests on a mark before it is selected and its sheet opens, as a phone's long-press. */
const LONG_PRESS_MS = 500;
/** How far a finger may wander during a long-press before it counts as a drag instead. */
const LONG_PRESS_SLOP_PX = 8;

/** A drag in progress: which mark, what part of it, where it started, and where it is now (snapped). */
interface Drag {
  key: string;
  part: 'body' | 'end';
  startX: number;
  fromMs: number;
  nowMs: number;
}

/**
 * The scripted faults and the learner's actions as marks on their lanes, over the timeline's
 * plot: the learner selects one (Tab, or ↑/↓ between marks, or a click) and moves it (←/→, a
 * drag), stretches it (`[`/`]`, a drag of its end) or removes it (Delete). The marks follow the
 * run asked for, so a moved mark sits where it was put while the new run computes; the old run
 * stays drawn beneath until then.
 */
export function StoryMarks({ store, place }: { store: PlayerStore; place: PlotPlace }) {
  const scenario = useStore(store, (s) => s.scenario);
  const config = useStore(store, (s) => s.requested ?? s.config);
  const marks = useMemo(() => playerMarks(scenario, config), [scenario, config]);
  const [selected, setSelected] = useState<string | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  // The mark whose sheet is open (a phone's long-press), and the long-press waiting to fire.
  const [sheetKey, setSheetKey] = useState<string | null>(null);
  const longPress = useRef<number | undefined>(undefined);
  const stopLongPress = () => window.clearTimeout(longPress.current);
  useEffect(() => stopLongPress, []);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const helpId = useId();
  // A mark removed hands the focus to its neighbour, so the keyboard never falls out of the layer.
  const focusAfterRemove = useRef<string | null>(null);

  // A mark removed from its sheet takes the sheet with it (and undo does not bring the sheet back).
  useEffect(() => {
    if (sheetKey !== null && !marks.some((m) => m.key === sheetKey)) setSheetKey(null);
  }, [marks, sheetKey]);

  useEffect(() => {
    const next = focusAfterRemove.current;
    if (next === null) return;
    focusAfterRemove.current = null;
    buttons.current.get(next)?.focus();
  }, [marks]);

  const sheetMark = marks.find((m) => m.key === sheetKey);
  const shown = marks.filter((m) => m.laneId !== null && place.laneTop(m.laneId) !== null);
  const onKeyDown = (event: KeyboardEvent, mark: PlayerMark, i: number) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      const next = shown[i + (event.key === 'ArrowUp' ? -1 : 1)];
      if (next) buttons.current.get(next.key)?.focus();
    } else if (event.key === 'Escape') {
      setSelected(null);
      buttons.current.get(mark.key)?.blur();
    } else {
      const change = keyChange(event, mark);
      if (!change) return;
      if (change.change === 'remove') focusAfterRemove.current = (shown[i + 1] ?? shown[i - 1])?.key ?? null;
      store.getState().changeMark(change);
    }
    // The player's own arrows step the playhead: not while a mark has them.
    event.preventDefault();
    event.stopPropagation();
  };

  const startDrag = (event: PointerEvent, mark: PlayerMark, part: Drag['part']) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    const fromMs = part === 'body' ? mark.atMs : mark.atMs + (mark.lengthMs ?? 0);
    setSelected(mark.key);
    setDrag({ key: mark.key, part, startX: event.clientX, fromMs, nowMs: fromMs });
    if (event.pointerType === 'touch') {
      stopLongPress();
      longPress.current = window.setTimeout(() => {
        setDrag(null);
        setSheetKey(mark.key);
      }, LONG_PRESS_MS);
    }
  };
  const moveDrag = (event: PointerEvent) => {
    if (!drag) return;
    if (Math.abs(event.clientX - drag.startX) > LONG_PRESS_SLOP_PX) stopLongPress();
    const nowMs = snapMs(drag.fromMs + (event.clientX - drag.startX) * place.msPerPx);
    if (nowMs !== drag.nowMs) setDrag({ ...drag, nowMs });
  };
  const endDrag = (mark: PlayerMark) => {
    stopLongPress();
    if (!drag) return;
    setDrag(null);
    if (drag.nowMs === drag.fromMs) return;
    store.getState().changeMark(drag.part === 'body' ? { mark: mark.key, change: 'move', toMs: drag.nowMs } : { mark: mark.key, change: 'resize', lengthMs: drag.nowMs - mark.atMs });
  };

  return (
    <div className="story-marks" role="group" aria-label="The run's faults and your actions" aria-describedby={helpId}>
      <p id={helpId} className="visually-hidden">
        Each mark is a fault on its lane. Left and right arrows move it by 0.1 s (with Shift, 1 s); [ and ] shorten or lengthen it; Delete removes it; up and down arrows go to the previous or next mark. Control+Z undoes.
      </p>
      {shown.map((mark, i) => {
        const dragged = drag?.key === mark.key ? drag : null;
        const atMs = dragged?.part === 'body' ? dragged.nowMs : mark.atMs;
        const lengthMs = dragged?.part === 'end' ? Math.max(SNAP_MS, dragged.nowMs - mark.atMs) : mark.lengthMs;
        const left = place.xOf(atMs);
        const width = lengthMs === null ? 0 : Math.max(0, place.xOf(atMs + lengthMs) - left);
        const name = `${mark.name}${mark.source === 'learner' ? ', yours' : ', scripted'}, at ${formatMs(atMs)}${lengthMs === null ? '' : ` for ${formatMs(lengthMs)}`}`;
        return (
          <div
            key={mark.key}
            className={`story-mark story-mark-${mark.source} story-mark-${lengthMs === null ? 'point' : 'span'}${selected === mark.key ? ' story-mark-selected' : ''}${dragged ? ' story-mark-dragged' : ''}`}
            style={{ left, top: place.laneTop(mark.laneId!)! + place.laneHeightPx - 22, ...(lengthMs === null ? {} : { width: Math.max(14, width) }) }}
          >
            <button
              type="button"
              ref={(el) => {
                if (el) buttons.current.set(mark.key, el);
                else buttons.current.delete(mark.key);
              }}
              className="story-mark-body"
              aria-label={name}
              aria-current={selected === mark.key ? 'true' : undefined}
              data-mark={mark.key}
              title={name}
              onFocus={() => setSelected(mark.key)}
              onKeyDown={(e) => onKeyDown(e, mark, i)}
              onPointerDown={(e) => startDrag(e, mark, 'body')}
              onPointerMove={moveDrag}
              onPointerUp={() => endDrag(mark)}
              onPointerCancel={() => (stopLongPress(), setDrag(null))}
              // A long-press is ours: not the browser's context menu or text selection.
              onContextMenu={(e) => e.preventDefault()}
            >
              {/* A span's band is labelled by the timeline beneath ("paused 15 s"): only a moment's tab names itself. */}
              {lengthMs === null && <span aria-hidden="true">{mark.name}</span>}
            </button>
            {mark.resizable && lengthMs !== null && (
              <span
                className="story-mark-end"
                aria-hidden="true"
                title={`Drag to change how long ${mark.name} lasts`}
                onPointerDown={(e) => startDrag(e, mark, 'end')}
                onPointerMove={moveDrag}
                onPointerUp={() => endDrag(mark)}
                onPointerCancel={() => (stopLongPress(), setDrag(null))}
              />
            )}
            {dragged && (
              <span className="story-mark-tip" aria-hidden="true">
                {dragged.part === 'body' ? formatMs(atMs) : formatMs(lengthMs ?? 0)}
              </span>
            )}
          </div>
        );
      })}
      {sheetMark && (
        <MarkSheet
          mark={sheetMark}
          onChange={(change) => store.getState().changeMark(change)}
          onClose={() => {
            setSheetKey(null);
            buttons.current.get(sheetMark.key)?.focus();
          }}
        />
      )}
    </div>
  );
}
