import { memo, startTransition, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { Lane } from '../../timeline/model';
import { TimelineView } from '../timeline/TimelineView';
import { EventList } from '../timeline/EventList';
import { actorCommands, faultScope } from './actorActions';
import { actorStatusKey } from './actorStatus';
import { ActorControls, useActors } from './ActorControls';
import { Console } from './Console';
import { Inspector } from './Inspector';
import { LaneMenu } from './LaneMenu';
import { LiveAnnouncer } from './LiveAnnouncer';
import { PlaybackControls } from './PlaybackControls';
import type { PlayerStore } from './playerStore';
import { processStatusesAt } from '../../actors/processStatus';
import { rolesAt } from './roles';
import { handlePlayerKey, SHORTCUTS } from './playerKeys';
import { RunStopNotice } from './RunStopNotice';
import { SharePanel } from './SharePanel';
import { VerdictPanel } from './VerdictPanel';

export interface PlayerViewProps {
  store: PlayerStore;
  /** Put the scenario itself in share links (the sandbox: its scenario is not in any lesson). */
  embedScenarioInLink?: boolean;
  /** Scroll the player into view once its first run is shown (it was opened from a share link). */
  bringIntoView?: boolean;
}

/**
 * The player's layout: controls, the timeline, what the checkers found, the inspector and console.
 * This component reads only what rarely changes; each part below subscribes to the slice it
 * shows, so a step re-renders the clock, the timeline and the few panels whose text moved, not
 * the whole player.
 */
export function PlayerView({ store, embedScenarioInLink = false, bringIntoView = false }: PlayerViewProps) {
  const title = useStore(store, (s) => s.scenario.title);
  const hasRun = useShownAfterTransition(useStore(store, (s) => s.events.length > 0));
  const computing = useStore(store, (s) => s.computing);
  const settledFirst = useStore(store, (s) => s.events.length > 0 || s.stopped !== null);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (bringIntoView && settledFirst) section.current?.scrollIntoView({ block: 'start' });
  }, [bringIntoView, settledFirst]);

  const [help, setHelp] = useState(false);
  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (hasRun && handlePlayerKey(event, store.getState(), () => setHelp((open) => !open))) event.preventDefault();
  };

  return (
    // Focusable (not tabbable) so that a click anywhere in the player lets its shortcuts work.
    <section ref={section} className="player" aria-label={`Simulation: ${title}`} aria-busy={computing} tabIndex={-1} onKeyDown={onKeyDown}>
      <header className="player-header">
        <h3>{title}</h3>
        {hasRun && <PlayerClock store={store} />}
      </header>
      <RunStopNotice store={store} />
      {help && <ShortcutList onClose={() => setHelp(false)} />}
      {hasRun ? (
        <PlayerBody store={store} embedScenarioInLink={embedScenarioInLink} />
      ) : (
        computing && <p className="player-loading">Computing the run…</p>
      )}
    </section>
  );
}

/** The keyboard shortcuts, listed when the learner presses `?` in the player. */
function ShortcutList({ onClose }: { onClose: () => void }) {
  return (
    <div className="player-shortcuts" role="group" aria-label="Keyboard shortcuts">
      <strong>Keyboard shortcuts</strong> (anywhere in the player, except while typing)
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} style={{ display: 'contents' }}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/**
 * Said when playback stopped by itself at the first broken invariant. The explanation is in the
 * verdicts, often below the fold (on a phone, far below): the button brings it into view.
 */
function StopBanner() {
  const banner = useRef<HTMLParagraphElement>(null);
  const jump = () => {
    const verdict = banner.current?.closest('section.player')?.querySelector<HTMLElement>('.verdict-broken');
    if (!verdict) return;
    verdict.tabIndex = -1;
    verdict.scrollIntoView({ block: 'center' });
    verdict.focus({ preventScroll: true });
  };
  return (
    <p ref={banner} className="player-stopped" role="status">
      <span>Stopped at the first broken invariant. Press Play to go on, or untick “Stop at first violation”.</span>
      <button type="button" onClick={jump}>
        Jump to the violation
      </button>
    </p>
  );
}

/**
 * Follows a flag that turns true once, but lets React mount what it reveals in a transition:
 * rendered in slices between which the browser can answer input, rather than in one long task.
 */
function useShownAfterTransition(flag: boolean): boolean {
  const [shown, setShown] = useState(flag);
  useEffect(() => {
    if (flag && !shown) startTransition(() => setShown(true));
  }, [flag, shown]);
  return shown;
}

/**
 * False until the frame after the first one has painted, then true (set in a transition). The
 * player mounts its controls and timeline first and its panels a frame later: two short tasks
 * instead of one long one while a slow phone shows the first run.
 */
function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => startTransition(() => setPainted(true)));
    });
    return () => cancelAnimationFrame(frame);
  }, []);
  return painted;
}

/** Everything that shows a run: mounted once the first run has arrived. */
function PlayerBody({ store, embedScenarioInLink }: { store: PlayerStore; embedScenarioInLink: boolean }) {
  const playing = useStore(store, (s) => s.playing);
  const stopped = useStore(store, (s) => s.stoppedAtViolation);
  const computing = useStore(store, (s) => s.computing);
  const panels = usePaintedOnce();
  usePlaybackClock(store, playing);

  return (
    <>
      <PlaybackControls store={store} />
      <p className="player-computing" role="status">
        {computing ? 'Computing the new run… the one below is the last that finished.' : ''}
      </p>
      {stopped && <StopBanner />}
      <PlayerTimeline store={store} />
      <LiveAnnouncer store={store} />
      {panels && (
        <>
          <div className="player-panels">
            <VerdictPanel store={store} />
            <ActorControls store={store} />
            <Inspector store={store} />
            <Console store={store} />
          </div>
          <PlayerEvents store={store} />
        </>
      )}
      <div className="player-footer">
        <TraceHash store={store} />
        <SharePanel store={store} embedScenario={embedScenarioInLink} />
      </div>
    </>
  );
}

/** The virtual time at the playhead. */
function PlayerClock({ store }: { store: PlayerStore }) {
  const playheadMs = useStore(store, (s) => s.playheadMs);
  return (
    <p className="player-clock" aria-live="off">
      <span className="player-clock-label">Virtual time</span> <strong>{formatMs(Math.round(playheadMs))}</strong>
    </p>
  );
}

/** The space-time diagram with each lane's action menu. */
const PlayerTimeline = memo(function PlayerTimeline({ store }: { store: PlayerStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const events = useStore(store, (s) => s.events);
  const verdicts = useStore(store, (s) => s.verdicts);
  const cursor = useStore(store, (s) => s.cursor);
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const selectedId = useStore(store, (s) => s.selectedId);
  const settings = useStore(store, (s) => s.settings);
  // The lane menus change only when some actor's status or role does, not on every step.
  const statusKey = useStore(store, (s) => actorStatusKey(s.events, s.cursor));
  const actors = useActors(store);
  const onSelect = useMemo(() => (id: number) => store.getState().select(id), [store]);

  const laneOverlay = useMemo(() => {
    const { events: now, cursor: at } = store.getState();
    const states = processStatusesAt(now, at);
    const roles = rolesAt(now, at);
    const scope = faultScope(scenario);
    return (lane: Lane) => {
      const actor = actors.find((a) => a.id === lane.id);
      if (!actor) return null;
      const commands = actorCommands(actor, states.get(actor.id) ?? 'running', scope, settings, roles.get(actor.id) ?? null);
      if (commands.length === 0) return null;
      return <LaneMenu actorLabel={actor.label} commands={commands} onChoose={(c) => store.getState().act(c.action)} />;
    };
    // statusKey stands for the states and roles read from the store above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, actors, scenario, settings, statusKey, events]);

  return (
    <TimelineView
      title={`Space-time diagram of ${scenario.title}`}
      events={events}
      verdicts={verdicts}
      cursor={cursor}
      playheadMs={playheadMs}
      {...(selectedId === null ? {} : { selectedId })}
      onSelect={onSelect}
      laneOverlay={laneOverlay}
    />
  );
});

/**
 * Every event so far as sentences. The list is built only while it is open: hundreds of list
 * items re-rendered on every step would cost more than the rest of the player together.
 */
function PlayerEvents({ store }: { store: PlayerStore }) {
  const events = useStore(store, (s) => s.events);
  const cursor = useStore(store, (s) => s.cursor);
  const [open, setOpen] = useState(false);
  return (
    <details className="player-events" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Every event so far ({cursor + 1} of {events.length})
      </summary>
      {open && <EventList events={events} cursor={cursor} />}
    </details>
  );
}

/** The run's fingerprint, which a share link must reproduce. */
function TraceHash({ store }: { store: PlayerStore }) {
  const traceHash = useStore(store, (s) => s.traceHash);
  return (
    <p className="player-fingerprint">
      Run fingerprint <code data-testid="trace-hash">{traceHash}</code>: the same scenario, seed and actions always give this
      same value.
    </p>
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
