import { useEffect } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { Lane } from '../../timeline/model';
import { TimelineView } from '../timeline/TimelineView';
import { EventList } from '../timeline/EventList';
import { actorCommands } from './actorActions';
import { ActorControls, useActors } from './ActorControls';
import { Console } from './Console';
import { Inspector } from './Inspector';
import { LaneMenu } from './LaneMenu';
import { LiveAnnouncer } from './LiveAnnouncer';
import { PlaybackControls } from './PlaybackControls';
import type { PlayerStore } from './playerStore';
import { processStatesAt } from './processStates';
import { rolesAt } from './roles';
import { SharePanel } from './SharePanel';
import { VerdictPanel } from './VerdictPanel';

export interface PlayerViewProps {
  store: PlayerStore;
  /** Put the scenario itself in share links (the sandbox: its scenario is not in any lesson). */
  embedScenarioInLink?: boolean;
}

/** The player's layout: controls, the timeline, what the checkers found, the inspector and console. */
export function PlayerView({ store, embedScenarioInLink = false }: PlayerViewProps) {
  const scenario = useStore(store, (s) => s.scenario);
  const events = useStore(store, (s) => s.events);
  const verdicts = useStore(store, (s) => s.verdicts);
  const cursor = useStore(store, (s) => s.cursor);
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const selectedId = useStore(store, (s) => s.selectedId);
  const traceHash = useStore(store, (s) => s.traceHash);
  const playing = useStore(store, (s) => s.playing);
  const stopped = useStore(store, (s) => s.stoppedAtViolation);
  const settings = useStore(store, (s) => s.settings);
  const actors = useActors(store);
  usePlaybackClock(store, playing);

  const states = processStatesAt(events, cursor);
  const roles = rolesAt(events, cursor);
  const laneOverlay = (lane: Lane) => {
    const actor = actors.find((a) => a.id === lane.id);
    if (!actor) return null;
    const commands = actorCommands(actor, states.get(actor.id) ?? 'running', scenario.controls, settings, roles.get(actor.id) ?? null);
    if (commands.length === 0) return null;
    return <LaneMenu actorLabel={actor.label} commands={commands} onChoose={(c) => store.getState().act(c.action)} />;
  };

  return (
    <section className="player" aria-label={`Simulation: ${scenario.title}`}>
      <header className="player-header">
        <h3>{scenario.title}</h3>
        <p className="player-clock" aria-live="off">
          <span className="player-clock-label">Virtual time</span> <strong>{formatMs(Math.round(playheadMs))}</strong>
        </p>
      </header>
      <PlaybackControls store={store} />
      {stopped && (
        <p className="player-stopped" role="status">
          Stopped at the first broken invariant. Press Play to go on, or untick “Stop at first violation”.
        </p>
      )}
      <TimelineView
        title={`Space-time diagram of ${scenario.title}`}
        events={events}
        verdicts={verdicts}
        cursor={cursor}
        playheadMs={playheadMs}
        {...(selectedId === null ? {} : { selectedId })}
        onSelect={(id) => store.getState().select(id)}
        laneOverlay={laneOverlay}
      />
      <LiveAnnouncer store={store} />
      <div className="player-panels">
        <VerdictPanel store={store} />
        <ActorControls store={store} />
        <Inspector store={store} />
        <Console store={store} />
      </div>
      <details className="player-events">
        <summary>Every event so far ({cursor + 1} of {events.length})</summary>
        <EventList events={events} cursor={cursor} />
      </details>
      <div className="player-footer">
        <p className="player-fingerprint">
          Run fingerprint <code data-testid="trace-hash">{traceHash}</code>: the same scenario, seed and actions always give
          this same value.
        </p>
        <SharePanel store={store} embedScenario={embedScenarioInLink} />
      </div>
    </section>
  );
}

/**
 * Moves the playhead in step with real time while playing. With prefers-reduced-motion the
 * playhead does not sweep: it jumps from step to step twice a second.
 */
function usePlaybackClock(store: PlayerStore, playing: boolean): void {
  useEffect(() => {
    if (!playing) return;
    if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) {
      const timer = setInterval(() => store.getState().tickStep(), 500);
      return () => clearInterval(timer);
    }
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
