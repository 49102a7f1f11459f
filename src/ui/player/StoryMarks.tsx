import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useStore } from 'zustand';
import { SNAP_MS } from '../../scenario/running/storyEdits';
import { formatMs } from '../../sim/time';
import type { PlotPlace } from '../timeline/TimelineOverlays';
import type { PlayerStore } from './playerStore';
import { playerMarks, type MarkChange, type PlayerMark } from './storyMarks';
import { MarkSheet } from './MarkSheet';
import { landing, snapTargets, type SnapTarget } from './dragSnap';

/** A second: Shift with an arrow or a bracket moves or stretches by this much. */
const BIG_STEP_MS = 1000;

/** A time on the 100 ms grid: keys move marks from grid line to grid line, as a drag between events lands. */
const onGrid = (ms: number) => Math.round(ms / SNAP_MS) * SNAP_MS;

/** What a key does to the focused mark, if anything (a mark off the grid, as a script may place it, lands on it). */
function keyChange(event: KeyboardEvent, mark: PlayerMark): MarkChange | null {
  const step = event.shiftKey ? BIG_STEP_MS : SNAP_MS;
  switch (event.key) {
    case 'ArrowLeft':
    case 'ArrowRight':
      return {
        mark: mark.key,
        change: 'move',
        toMs: Math.max(0, onGrid(mark.atMs + (event.key === 'ArrowLeft' ? -step : step))),
      };
    case '[':
    case '{':
    case ']':
    case '}':
      if (!mark.resizable) return null;
      return {
        mark: mark.key,
        change: 'resize',
        lengthMs: Math.max(
          SNAP_MS,
          onGrid((mark.lengthMs ?? 0) + (event.key === '[' || event.key === '{' ? -step : step)),
        ),
      };
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

/** A drag in progress: which mark, what part of it, where it started, where it is now (snapped), and what it snapped to. */
interface Drag {
  key: string;
  part: 'body' | 'end';
  startX: number;
  /** The mark's time less the time under the pointer when grabbed: kept while the pointer moves. */
  grabOffsetMs: number;
  fromMs: number;
  nowMs: number;
  on: SnapTarget | null;
  /** What it can land on: fixed when the drag begins, so the runs shown while it lasts do not pull the mark along. */
  targets: SnapTarget[];
}

/** The change a drag makes, at where it is now. */
function dragChange(drag: Drag, mark: PlayerMark): MarkChange {
  return drag.part === 'body'
    ? { mark: mark.key, change: 'move', toMs: drag.nowMs }
    : { mark: mark.key, change: 'resize', lengthMs: drag.nowMs - mark.atMs };
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
  // The handlers read the drag from here: a finger's moves can arrive before React has drawn the
  // drag their press began, and a move read from the last render would be dropped.
  const dragNow = useRef<Drag | null>(null);
  const putDrag = (next: Drag | null) => {
    dragNow.current = next;
    setDrag(next);
  };
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

  // The time under a pointer, on the plot as it is drawn now: a run shown mid-drag that ends
  // later or sooner redraws the axis, and the mark must stay under the pointer all the same.
  const group = useRef<HTMLDivElement>(null);
  const msAt = (clientX: number) =>
    (clientX - (group.current?.getBoundingClientRect().left ?? 0) - place.xOf(0)) * place.msPerPx;
  const startDrag = (event: PointerEvent, mark: PlayerMark, part: Drag['part']) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    const fromMs = part === 'body' ? mark.atMs : mark.atMs + (mark.lengthMs ?? 0);
    setSelected(mark.key);
    const labelOf = (id: string) => scenario.clients.find((c) => c.id === id)?.label ?? id;
    const targets = snapTargets(store.getState().events, marks, mark, labelOf);
    place.holdWindow(true);
    putDrag({
      key: mark.key,
      part,
      startX: event.clientX,
      grabOffsetMs: fromMs - msAt(event.clientX),
      fromMs,
      nowMs: fromMs,
      on: null,
      targets,
    });
    if (event.pointerType === 'touch') {
      stopLongPress();
      longPress.current = window.setTimeout(() => {
        putDrag(null);
        setSheetKey(mark.key);
      }, LONG_PRESS_MS);
    }
  };
  const moveDrag = (event: PointerEvent) => {
    const drag = dragNow.current;
    if (!drag) return;
    if (Math.abs(event.clientX - drag.startX) > LONG_PRESS_SLOP_PX) stopLongPress();
    const mark = marks.find((m) => m.key === drag.key);
    if (!mark) return;
    const rawMs = msAt(event.clientX) + drag.grabOffsetMs;
    const landed = landing(rawMs, drag.targets, place.msPerPx, drag.part === 'body' ? (mark.lengthMs ?? 0) : 0);
    if (landed.atMs === drag.nowMs && landed.on === drag.on) return;
    const next = { ...drag, nowMs: landed.atMs, on: landed.on };
    putDrag(next);
    // The run recomputes as the mark moves; the release below makes the last position a change.
    store.getState().previewMark(next.nowMs === next.fromMs ? null : dragChange(next, mark));
  };
  const endDrag = (mark: PlayerMark) => {
    stopLongPress();
    place.holdWindow(false);
    const drag = dragNow.current;
    if (!drag) return;
    putDrag(null);
    if (drag.nowMs !== drag.fromMs) store.getState().changeMark(dragChange(drag, mark));
    store.getState().previewMark(null);
  };
  const cancelDrag = () => {
    stopLongPress();
    putDrag(null);
    store.getState().previewMark(null);
    place.holdWindow(false);
  };

  return (
    <div
      ref={group}
      className="story-marks"
      role="group"
      aria-label="The run's faults and your actions"
      aria-describedby={helpId}
    >
      <p id={helpId} className="visually-hidden">
        Each mark is a fault on its lane. Left and right arrows move it by 0.1 s (with Shift, 1 s); [ and ] shorten or
        lengthen it; Delete removes it; up and down arrows go to the previous or next mark. Control+Z undoes. A drag
        snaps to the nearest 0.1 s, or to an event it comes close to; a right-click opens the mark's sheet.
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
            style={{
              left,
              top: place.laneTop(mark.laneId!)! + place.laneHeightPx - 22,
              ...(lengthMs === null ? {} : { width: Math.max(14, width) }),
            }}
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
              onPointerCancel={cancelDrag}
              // A right-click (or a long-press) opens the mark's own sheet, not the browser's menu.
              onContextMenu={(e) => {
                e.preventDefault();
                cancelDrag();
                setSelected(mark.key);
                setSheetKey(mark.key);
              }}
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
                onPointerCancel={cancelDrag}
              />
            )}
            {dragged && (
              <span className="story-mark-tip" aria-hidden="true" data-testid="drag-tip">
                {dragged.part === 'body' ? formatMs(atMs) : formatMs(lengthMs ?? 0)}
                {dragged.on && ` · at ${dragged.on.what}`}
              </span>
            )}
          </div>
        );
      })}
      {drag?.on && (
        // Where the dragged mark will land, across every lane, as a video editor shows a snap.
        <span
          className="story-snap-guide"
          aria-hidden="true"
          data-testid="snap-guide"
          style={{ left: place.xOf(drag.on.atMs), height: place.heightPx }}
        />
      )}
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
