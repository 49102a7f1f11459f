import { useEffect } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import { TimelineView } from '../timeline/TimelineView';
import { EventList } from '../timeline/EventList';
import { ActorControls } from './ActorControls';
import { PlaybackControls } from './PlaybackControls';
import type { PlayerStore } from './playerStore';
import { VerdictPanel } from './VerdictPanel';

/** The player's layout: controls, the timeline, what the checkers found, and the event list. */
export function PlayerView({ store }: { store: PlayerStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const events = useStore(store, (s) => s.events);
  const verdicts = useStore(store, (s) => s.verdicts);
  const cursor = useStore(store, (s) => s.cursor);
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const selectedId = useStore(store, (s) => s.selectedId);
  const traceHash = useStore(store, (s) => s.traceHash);
  const playing = useStore(store, (s) => s.playing);
  usePlaybackClock(store, playing);

  return (
    <section className="player" aria-label={`Simulation: ${scenario.title}`}>
      <header className="player-header">
        <h3>{scenario.title}</h3>
        <p className="player-clock" aria-live="off">
          <span className="player-clock-label">Virtual time</span> <strong>{formatMs(playheadMs)}</strong>
        </p>
      </header>
      <PlaybackControls store={store} />
      <TimelineView
        title={`Space-time diagram of ${scenario.title}`}
        events={events}
        verdicts={verdicts}
        cursor={cursor}
        {...(selectedId === null ? {} : { selectedId })}
        onSelect={(id) => store.getState().select(id)}
      />
      <div className="player-panels">
        <VerdictPanel store={store} />
        <ActorControls store={store} />
      </div>
      <details className="player-events">
        <summary>Every event so far ({cursor + 1} of {events.length})</summary>
        <EventList events={events} cursor={cursor} />
      </details>
      <p className="player-fingerprint">
        Run fingerprint <code data-testid="trace-hash">{traceHash}</code>: the same scenario, seed and actions always give
        this same value.
      </p>
    </section>
  );
}

/** Moves the playhead in step with real time while playing. */
function usePlaybackClock(store: PlayerStore, playing: boolean): void {
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    const loop = (now: number) => {
      store.getState().tick(now - last);
      last = now;
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, [store, playing]);
}
