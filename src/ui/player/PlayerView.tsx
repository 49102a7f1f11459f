import {
  memo,
  startTransition,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { useStore } from 'zustand';
import { formatMs } from '../../sim/time';
import type { Lane } from '../../timeline/model';
import { TimelineView } from '../timeline/TimelineView';
import type { PlotPlace } from '../timeline/TimelineOverlays';
import { EventList } from '../timeline/EventList';
import { actorCommands, faultScope } from './actorActions';
import { actorStatusKey } from './actorStatus';
import { ActorControls, useActors } from './ActorControls';
import { ComputingNote } from './ComputingNote';
import { Console } from './Console';
import { Inspector } from './Inspector';
import { LaneMenu } from './LaneMenu';
import { ClientTiming } from './ClientTiming';
import { editScenario } from '../../scenario/running/storyEdits';
import { LiveAnnouncer } from './LiveAnnouncer';
import { useNearViewport } from './nearViewport';
import { PlaybackControls } from './PlaybackControls';
import type { PlayerStore } from './playerStore';
import { processStatusesAt } from '../../actors/process/processStatus';
import { rolesAt } from './roles';
import { handlePlayerKey, handleUndoKey } from './playerKeys';
import { ShortcutList } from './ShortcutList';
import { StoryBar } from './StoryBar';
import { LessonRunCompare } from './LessonRunCompare';
import { isChanged } from './storyMarks';
import { StoryMarks } from './StoryMarks';
import { Loaded, loader } from '../layout/loader';
import { RunStopNotice } from './RunStopNotice';
import { SharePanel } from './SharePanel';
import { VerdictPanel } from './VerdictPanel';
import { NarrowFold, useNarrow } from './NarrowFold';
import { usePlaybackClock } from './usePlaybackClock';

// The statechart brings the actors' machines (and XState) into the page: only when asked for.
const loadStatechartPanel = loader(() => import('../statechart/StatechartPanel').then((m) => m.default));

export interface PlayerViewProps {
  store: PlayerStore;
  /** Put the scenario itself in share links (the sandbox: its scenario is not in any lesson). */
  embedScenarioInLink?: boolean;
  /** Scroll the player into view once its first run is shown (it was opened from a share link). */
  bringIntoView?: boolean;
  /**
   * Draw the timeline and panels only once the player nears sight (a lesson, which can hold
   * seven players); elsewhere (the sandbox, a preview) the player is the page, drawn at once.
   */
  drawWhenNear?: boolean;
  /** Known to be near sight already (it mounted on screen): drawn without looking again. */
  startsNear?: boolean;
}

/**
 * The player's layout: controls, the timeline, what the checkers found, the inspector and console.
 * This component reads only what rarely changes; each part below subscribes to the slice it
 * shows, so a step re-renders the clock, the timeline and the few panels whose text moved, not
 * the whole player.
 */
export function PlayerView({
  store,
  embedScenarioInLink = false,
  bringIntoView = false,
  drawWhenNear = false,
  startsNear = false,
}: PlayerViewProps) {
  const title = useStore(store, (s) => s.scenario.title);
  const hasRun = useShownAfterTransition(useStore(store, (s) => s.events.length > 0));
  const computing = useStore(store, (s) => s.computing);
  const settledFirst = useStore(store, (s) => s.events.length > 0 || s.stopped !== null);
  const section = useRef<HTMLElement>(null);
  // A player out of sight shows its controls at once and draws its timeline and panels as the
  // learner nears it (see useNearViewport); one opened from a share link is brought into view.
  const near = useNearViewport(section, hasRun && drawWhenNear, startsNear) || !drawWhenNear;
  useEffect(() => {
    if (bringIntoView && settledFirst) section.current?.scrollIntoView({ block: 'start' });
  }, [bringIntoView, settledFirst]);

  const [help, setHelp] = useState(false);
  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (hasRun && handleUndoKey(event, store.getState())) event.preventDefault();
    else if (hasRun && handlePlayerKey(event, store.getState(), () => setHelp((open) => !open))) event.preventDefault();
  };

  return (
    // Focusable (not tabbable) so that a click anywhere in the player lets its shortcuts work.
    <section
      ref={section}
      className="player"
      aria-label={`Simulation: ${title}`}
      aria-busy={computing}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <header className="player-header">
        <h3>{title}</h3>
        {hasRun && <PlayerClock store={store} />}
      </header>
      <RunStopNotice store={store} />
      {help && <ShortcutList onClose={() => setHelp(false)} />}
      {hasRun ? (
        <PlayerBody store={store} embedScenarioInLink={embedScenarioInLink} near={near} />
      ) : (
        computing && <p className="player-loading">Computing the run…</p>
      )}
    </section>
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
function PlayerBody({
  store,
  embedScenarioInLink,
  near,
}: {
  store: PlayerStore;
  embedScenarioInLink: boolean;
  near: boolean;
}) {
  const playing = useStore(store, (s) => s.playing);
  const stopped = useStore(store, (s) => s.stoppedAtViolation);
  const changed = useStore(store, (s) => isChanged(s.requested ?? s.config));
  const [comparing, setComparing] = useState(false);
  const panels = usePaintedOnce();
  const narrow = useNarrow();
  usePlaybackClock(store, playing);
  // On a phone the verdicts run a screen or more; the fault buttons come first, near Play.
  const breakThings = (
    <NarrowFold label="Break things" startOpen={store.getState().config.actions.length > 0}>
      <ActorControls store={store} />
    </NarrowFold>
  );

  return (
    <>
      <PlaybackControls store={store} />
      <ComputingNote store={store} />
      {stopped && <StopBanner />}
      <StoryBar store={store} comparing={comparing} onCompare={setComparing} />
      {near ? (
        <PlayerTimeline store={store} />
      ) : (
        <div className="player-timeline player-timeline-pending" aria-hidden="true" />
      )}
      {comparing && changed && <LessonRunCompare store={store} />}
      <LiveAnnouncer store={store} />
      {panels && near && (
        <>
          <div className="player-panels">
            {/* A run with the learner's changes (a share link) opens Break things: they list the changes and their undo. */}
            {narrow && breakThings}
            <VerdictPanel store={store} />
            {!narrow && breakThings}
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

/**
 * The virtual time at the playhead. A timer, named by its visible label, so that a screen reader
 * can find the clock and read it on request; a timer is not announced as it changes.
 */
function PlayerClock({ store }: { store: PlayerStore }) {
  const playheadMs = useStore(store, (s) => s.playheadMs);
  const label = useId();
  return (
    <p className="player-clock" aria-live="off">
      <span className="player-clock-label" id={label}>
        Virtual time
      </span>{' '}
      <strong role="timer" aria-labelledby={label}>
        {formatMs(Math.round(playheadMs))}
      </strong>
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
  const edits = useStore(store, (s) => (s.requested ?? s.config).edits);
  // The lane menus change only when some actor's status or role does, not on every step.
  const statusKey = useStore(store, (s) => actorStatusKey(s.events, s.cursor));
  const actors = useActors(store);
  const onSelect = useMemo(() => (id: number) => store.getState().select(id), [store]);
  const plotOverlay = useMemo(() => (place: PlotPlace) => <StoryMarks store={store} place={place} />, [store]);
  const view = scenario.view;
  const opensOn = useMemo(() => (view ? { fromMs: view.from, toMs: view.to } : undefined), [view]);
  // The actor whose statechart is open beside its lane, if any.
  const [chartOf, setChartOf] = useState<string | null>(null);
  const timelineRef = useRef<HTMLDivElement>(null);
  const closeChart = () => {
    const lane = chartOf;
    setChartOf(null);
    // Back to the menu button that opened it (CSS.escape: an actor id is the scenario's to choose).
    timelineRef.current
      ?.querySelector<HTMLButtonElement>(`.lane-menu-button[data-lane="${CSS.escape(lane ?? '')}"]`)
      ?.focus();
  };
  const chartActor = actors.find((a) => a.id === chartOf);

  const laneOverlay = useMemo(() => {
    const { events: now, cursor: at } = store.getState();
    const states = processStatusesAt(now, at);
    const roles = rolesAt(now, at);
    const scope = faultScope(scenario);
    const story = editScenario(scenario, edits ?? []);
    return (lane: Lane) => {
      const actor = actors.find((a) => a.id === lane.id);
      if (!actor) return null;
      const commands = actorCommands(
        actor,
        states.get(actor.id) ?? 'running',
        scope,
        settings,
        roles.get(actor.id) ?? null,
      );
      // Clients and sentinels are driven by XState machines: their menu offers the statechart.
      const hasMachine = actor.role === 'client' || actor.role === 'sentinel';
      if (commands.length === 0 && !hasMachine) return null;
      const statechart = hasMachine
        ? { shown: chartOf === actor.id, toggle: () => setChartOf((open) => (open === actor.id ? null : actor.id)) }
        : undefined;
      const client = story.clients.find((c) => c.id === actor.id);
      const timing =
        client &&
        ((close: () => void) => (
          <ClientTiming
            key={`${client.startAt} ${client.ttl} ${client.work}`}
            label={actor.label}
            timings={{
              startAtMs: client.startAt,
              ttlMs: client.ttl,
              workMs: client.work === 'forever' ? null : client.work,
            }}
            onApply={(change) => (store.getState().changeClient({ client: client.id, ...change }), close())}
          />
        ));
      return (
        <LaneMenu
          laneId={actor.id}
          actorLabel={actor.label}
          commands={commands}
          onChoose={(c) => store.getState().act(c.action)}
          {...(statechart ? { statechart } : {})}
          {...(timing ? { timing } : {})}
        />
      );
    };
    // statusKey stands for the states and roles read from the store above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, actors, scenario, edits, settings, statusKey, events, chartOf]);

  return (
    <div ref={timelineRef} className="player-timeline">
      <TimelineView
        title={`Space-time diagram of ${scenario.title}`}
        events={events}
        verdicts={verdicts}
        cursor={cursor}
        playheadMs={playheadMs}
        {...(selectedId === null ? {} : { selectedId })}
        onSelect={onSelect}
        laneOverlay={laneOverlay}
        plotOverlay={plotOverlay}
        {...(opensOn ? { opensOn } : {})}
        {...(chartActor
          ? {
              laneDetail: {
                laneId: chartActor.id,
                content: (
                  <Loaded
                    load={loadStatechartPanel}
                    name="the statechart"
                    loading={<p className="player-loading">Loading the statechart…</p>}
                    render={(StatechartPanel) => (
                      <StatechartPanel
                        actor={chartActor}
                        scenario={scenario}
                        events={events}
                        cursor={cursor}
                        onClose={closeChart}
                      />
                    )}
                  />
                ),
              },
            }
          : {})}
      />
    </div>
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
      Run fingerprint <code data-testid="trace-hash">{traceHash}</code>: the same scenario, seed and actions always give
      this same value.
    </p>
  );
}
