import { useState } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { PlayerStore } from './playerStore';
import { processStatesAt } from './processStates';

/**
 * The learner's fault buttons, one row per process, each offered only when the scenario's
 * `controls` allow it. An action happens at the playhead's time; the run is recomputed.
 */
export function ActorControls({ store }: { store: PlayerStore }) {
  const controls = useStore(store, (s) => s.scenario.controls);
  const events = useStore(store, (s) => s.events);
  const cursor = useStore(store, (s) => s.cursor);
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const actionCount = useStore(store, (s) => s.config.actions.length);
  const [pauseSeconds, setPauseSeconds] = useState(15);
  const first = events[0];
  const actors = first?.kind === 'run.start' ? first.data.actors : [];
  const states = processStatesAt(events, cursor);
  const act = store.getState().act;
  const allowed = (name: string) => controls.includes(name as (typeof controls)[number]);
  if (!controls.some((c) => c !== 'toggle-fencing')) return null;

  return (
    <div className="player-panel">
      <h4>Break things at {formatMs(playheadMs)}</h4>
      {allowed('pause') && (
        <label className="player-field">
          Pause length (s)
          <input type="number" min={1} max={120} value={pauseSeconds} onChange={(e) => setPauseSeconds(Math.max(1, Number(e.target.value) || 1))} />
        </label>
      )}
      <ul className="actor-controls">
        {actors.map((actor) => {
          const status = states.get(actor.id) ?? 'running';
          return (
            <li key={actor.id}>
              <span className="actor-name">
                {actor.label} <span className="muted">({status})</span>
              </span>
              {allowed('pause') && (
                <button type="button" disabled={status !== 'running'} onClick={() => act({ do: 'pause', target: actor.id, forMs: pauseSeconds * 1000 })}>
                  Pause {actor.label} for {pauseSeconds} s
                </button>
              )}
              {allowed('resume') && (
                <button type="button" disabled={status !== 'paused'} onClick={() => act({ do: 'resume', target: actor.id })}>
                  Resume {actor.label}
                </button>
              )}
              {allowed('crash') && (
                <button type="button" disabled={status === 'crashed'} onClick={() => act({ do: 'crash', target: actor.id })}>
                  Crash {actor.label}
                </button>
              )}
              {allowed('restart') && (
                <button type="button" disabled={status !== 'crashed'} onClick={() => act({ do: 'restart', target: actor.id })}>
                  Restart {actor.label}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {actionCount > 0 && (
        <p className="muted">
          You changed this run {actionCount} time{actionCount === 1 ? '' : 's'}.{' '}
          <button type="button" className="link" onClick={store.getState().clearActions}>
            Undo my changes
          </button>
        </p>
      )}
    </div>
  );
}
