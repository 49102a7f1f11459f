import { useId, useState } from 'react';
import { useStore } from 'zustand';
import type { PlayerStore } from './playerStore';

const SPEEDS = [0.5, 1, 2, 4, 8];

/** Play, step, step back, reset, speed, scrubbing, seed, auto-pause and the fencing switch. */
export function PlaybackControls({ store }: { store: PlayerStore }) {
  const playing = useStore(store, (s) => s.playing);
  // Booleans, not the cursor itself: the buttons re-render only when they enable or disable.
  const atStart = useStore(store, (s) => s.cursor === 0);
  const atEnd = useStore(store, (s) => s.cursor >= s.events.length - 1);
  const speed = useStore(store, (s) => s.speed);
  // The switches show what was asked for at once, not only once its run has computed.
  const seed = useStore(store, (s) => (s.requested ?? s.config).seed);
  const fencing = useStore(store, (s) => (s.requested ?? s.config).fencing);
  const autoPause = useStore(store, (s) => s.autoPause);
  const canToggleFencing = useStore(store, (s) => s.scenario.controls.includes('toggle-fencing'));
  const state = store.getState();

  return (
    <div className="player-controls-block">
      <div className="player-controls" role="toolbar" aria-label="Playback">
        <button type="button" className="primary" onClick={() => (playing ? state.pause() : state.play())}>
          {playing ? 'Pause' : atEnd ? 'Replay' : 'Play'}
        </button>
        <button type="button" onClick={state.stepBack} disabled={atStart}>
          Step back
        </button>
        <button type="button" onClick={state.stepForward} disabled={atEnd}>
          Step
        </button>
        <button type="button" onClick={state.reset} disabled={atStart && !playing}>
          Reset
        </button>
        <label className="player-field">
          Speed
          <select value={speed} onChange={(e) => state.setSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <label className="player-field">
          Seed
          <input
            type="number"
            min={0}
            value={seed}
            onChange={(e) => {
              const next = Number(e.target.value);
              if (Number.isInteger(next) && next >= 0) state.setSeed(next);
            }}
          />
        </label>
        <label className="player-switch">
          <input type="checkbox" checked={autoPause} onChange={(e) => state.setAutoPause(e.target.checked)} />
          Stop at first violation
        </label>
        {canToggleFencing && (
          <label className="player-switch">
            <input type="checkbox" checked={fencing} onChange={(e) => state.setFencing(e.target.checked)} />
            Fencing tokens
          </label>
        )}
      </div>
      <Scrubber store={store} />
    </div>
  );
}

/** A slider over the whole run, plus a typed time for those who cannot or would rather not drag. */
function Scrubber({ store }: { store: PlayerStore }) {
  const playheadMs = useStore(store, (s) => s.playheadMs);
  // A store made for a new scenario (a lesson hot-reloaded by `npm run dev`) has no events until
  // its run arrives, and the controls, once shown, stay (PlayerView).
  const endMs = useStore(store, (s) => s.events.at(-1)?.at ?? 0);
  const [typed, setTyped] = useState('');
  const id = useId();
  const go = () => {
    const seconds = Number(typed.replace(',', '.'));
    if (typed.trim() !== '' && Number.isFinite(seconds)) store.getState().seekTime(Math.round(seconds * 1000));
  };
  return (
    <div className="player-scrub">
      <label htmlFor={`${id}-range`} className="player-scrub-label">
        Playhead
      </label>
      <input
        id={`${id}-range`}
        type="range"
        min={0}
        max={endMs}
        step={1}
        value={Math.round(playheadMs)}
        aria-valuetext={`${(playheadMs / 1000).toFixed(3)} seconds of ${(endMs / 1000).toFixed(3)}`}
        onChange={(e) => store.getState().seekTime(Number(e.target.value))}
      />
      <form
        className="player-goto"
        onSubmit={(e) => {
          e.preventDefault();
          go();
        }}
      >
        <label>
          Go to time (s)
          <input
            type="text"
            inputMode="decimal"
            size={7}
            value={typed}
            placeholder={(playheadMs / 1000).toFixed(1)}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <button type="submit">Go</button>
      </form>
    </div>
  );
}
