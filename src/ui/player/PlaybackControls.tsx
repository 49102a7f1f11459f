import { useStore } from 'zustand';
import type { PlayerStore } from './playerStore';

const SPEEDS = [1, 2, 4, 8];

/** Play, step, step back, reset, speed, seed and the fencing switch. */
export function PlaybackControls({ store }: { store: PlayerStore }) {
  const playing = useStore(store, (s) => s.playing);
  const cursor = useStore(store, (s) => s.cursor);
  const last = useStore(store, (s) => s.events.length - 1);
  const speed = useStore(store, (s) => s.speed);
  const seed = useStore(store, (s) => s.config.seed);
  const fencing = useStore(store, (s) => s.config.fencing);
  const canToggleFencing = useStore(store, (s) => s.scenario.controls.includes('toggle-fencing'));
  const state = store.getState();

  return (
    <div className="player-controls" role="toolbar" aria-label="Playback">
      <button type="button" className="primary" onClick={() => (playing ? state.pause() : state.play())}>
        {playing ? 'Pause' : cursor >= last ? 'Replay' : 'Play'}
      </button>
      <button type="button" onClick={state.stepBack} disabled={cursor === 0}>
        Step back
      </button>
      <button type="button" onClick={state.stepForward} disabled={cursor >= last}>
        Step
      </button>
      <button type="button" onClick={state.reset} disabled={cursor === 0 && !playing}>
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
      {canToggleFencing && (
        <label className="player-switch">
          <input type="checkbox" checked={fencing} onChange={(e) => state.setFencing(e.target.checked)} />
          Fencing tokens
        </label>
      )}
    </div>
  );
}
