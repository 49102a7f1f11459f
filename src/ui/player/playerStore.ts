import { createStore } from 'zustand/vanilla';
import type { UntimedAction } from '../../actors/action';
import type { Scenario } from '../../scenario/schema/schema';
import { describeAction } from '../../scenario/text/describeAction';
import { formatMs, simTime } from '../../sim/time';
import { applyMarkChange, describeMarkChange, isChanged, type MarkChange } from './storyMarks';
import { describeClientChanges, editScenario, type ClientEdit } from '../../scenario/running/storyEdits';
import type { PlayerSimulator } from '../worker/playerSimulator';
import type { ActionSettings } from './actorActions';
import { previewRuns } from './previewRuns';
import {
  cursorAtTime,
  defaultRunConfig,
  firstViolationMs,
  nextStep,
  previousStep,
  type ComputedRun,
  type RunConfig,
} from './runModel';

/** Why the run last asked for is not the one shown. */
export type RunStop =
  | { why: 'stopped'; budgetMs: number; whole?: true; config: RunConfig }
  | { why: 'failed'; message: string; config: RunConfig };

export interface PlayerState extends ComputedRun {
  scenario: Scenario;
  /** Where runs are computed (a worker, in the browser); the inspector and the bug finder use it too. */
  simulator: PlayerSimulator;
  /** The configuration of the run shown (or, before the first run arrives, of the run being computed). */
  config: RunConfig;
  /** The configuration of the run being computed, while one is (the switches show it at once). */
  requested: RunConfig | null;
  /** True while a run is being computed; the last good run stays shown meanwhile. */
  computing: boolean;
  /** Set when the last run asked for was stopped by the watchdog or failed; cleared by the next good run. */
  stopped: RunStop | null;
  /** Index of the current event: events 0..cursor have happened. */
  cursor: number;
  /** Virtual time of the playhead (between events while playing). */
  playheadMs: number;
  playing: boolean;
  /** Virtual seconds per real second. */
  speed: number;
  selectedId: number | null;
  /** Stop playing when the playhead reaches the first broken invariant. */
  autoPause: boolean;
  /** Set when playback stopped by itself at a violation, so the page can say why. */
  stoppedAtViolation: boolean;
  /** How long the learner's pauses last and how far their clock jumps go. */
  settings: ActionSettings;
  /** The runs before each change of the story (an action, a mark moved, stretched or removed), newest last, with what the change did. */
  undoStack: StoryStep[];
  /** Changes undone, to redo, newest last. */
  redoStack: StoryStep[];
  /** What the last change, undo or redo did, for the live region ("pause A shortened to 5 s"). */
  storyNote: string;

  play(): void;
  pause(): void;
  /** Advances the playhead by `realMs` of wall time (called per animation frame). */
  tick(realMs: number): void;
  /** Playing without motion: jumps to the next step instead of sweeping (prefers-reduced-motion). */
  tickStep(): void;
  setSettings(settings: Partial<ActionSettings>): void;
  stepForward(): void;
  stepBack(): void;
  reset(): void;
  seek(cursor: number): void;
  /** Moves the playhead to a virtual time (clamped to the run). */
  seekTime(ms: number): void;
  setSpeed(speed: number): void;
  setSeed(seed: number): void;
  setFencing(on: boolean): void;
  setAutoPause(on: boolean): void;
  /** Applies an action at the playhead's time and re-runs; the past stays as it was. */
  act(action: UntimedAction): void;
  /** Drops the learner's actions and edits: back to the lesson's run (itself a change that can be undone). */
  clearActions(): void;
  /** Moves, stretches or removes one mark (a scripted fault or a learner action) and re-runs. */
  changeMark(change: MarkChange): void;
  /**
   * Shows the run with one mark changed while the learner is still dragging it, without making it
   * a change (no undo step); null when the drag ends or is abandoned, which puts back the run
   * shown before it unless a change took its place. See previewRuns.ts.
   */
  previewMark(change: MarkChange | null): void;
  /** Changes a client's start time, TTL or work duration (from its lane menu) and re-runs. */
  changeClient(change: Omit<ClientEdit, 'edit'>): void;
  undo(): void;
  redo(): void;
  /** Replaces the whole run configuration (a share link being opened), optionally at a playhead time. */
  load(config: RunConfig, atMs?: number): void;
  /** Selects an event and moves the playhead to it. */
  select(id: number | null): void;
  /** Forgets a stopped run's notice (the last good run stays as it is). */
  dismissStop(): void;
  /** Resolves once no run is being computed (tests, and hosts that wait for the first run). */
  settled(): Promise<void>;
}

export type PlayerStore = ReturnType<typeof createPlayerStore>;

/** One change of the story as undo keeps it: the run before it, and what it did. */
export interface StoryStep {
  config: RunConfig;
  note: string;
}

/**
 * One embedded simulation's state. The run is computed whole, off the main thread, and playing,
 * stepping and stepping back just move a cursor over its trace. A learner action re-runs the
 * same scenario and seed with one more action: everything before it is identical, because the
 * simulation is deterministic. While a run computes, the last good one stays on screen; an
 * action taken meanwhile builds on the run being computed and supersedes it.
 *
 * `shown`, when given, is the first run already computed (the build's copy of the default run,
 * see firstRuns.ts): the player shows it from its first frame instead of asking for it.
 */
export function createPlayerStore(
  scenario: Scenario,
  simulator: PlayerSimulator,
  initial?: Partial<RunConfig> & { atMs?: number },
  shown?: ComputedRun,
) {
  const defaults = defaultRunConfig(scenario);
  const firstConfig: RunConfig = {
    seed: initial?.seed ?? defaults.seed,
    fencing: initial?.fencing ?? defaults.fencing,
    actions: initial?.actions ?? defaults.actions,
    ...(initial?.edits?.length ? { edits: initial.edits } : {}),
  };
  const store = createStore<PlayerState>()((set, get) => {
    // Only the newest request may land; `requested` is what it asked for, so actions taken
    // while it computes build on it rather than on the run still shown.
    let latest = 0;
    let idle: Promise<void> = Promise.resolve();
    // The time the learner last asked for while a run computed (unclamped: "go to 100000 s" means
    // the end of the new run). Compared values miss a move to where the playhead already was, as
    // when a learner at the end switches fencing and goes to the end again.
    let soughtMs: number | null = null;
    const sought = (ms: number) => {
      if (get().computing) soughtMs = ms;
    };
    const base = () => get().requested ?? get().config;
    const rerun = (config: RunConfig, keepTimeMs: number) => {
      const request = ++latest;
      const shownMs = get().playheadMs;
      soughtMs = null;
      // The drag that led here has usually computed this very run already: its answer is taken as it is.
      const ready = previews
        .answerFor(config)
        ?.then((o) => (o.ok || o.why !== 'superseded' ? o : simulator.run(config)));
      set({ computing: true, requested: config });
      const done = (ready ?? simulator.run(config)).then((outcome) => {
        if (request !== latest) return;
        set({ requested: null });
        if (outcome.ok) {
          const run = outcome.value;
          // A learner who moved the playhead while the run computed asked to see that moment.
          const atMs = soughtMs ?? (get().playheadMs !== shownMs ? get().playheadMs : keepTimeMs);
          const cursor = cursorAtTime(run.events, atMs);
          const playheadMs = Math.min(atMs, run.events[run.events.length - 1]!.at);
          set({
            ...run,
            config,
            cursor,
            playheadMs,
            selectedId: null,
            stoppedAtViolation: false,
            computing: false,
            stopped: null,
          });
        } else if (outcome.why === 'stopped') {
          set({
            computing: false,
            playing: false,
            stopped: { why: 'stopped', budgetMs: outcome.budgetMs, ...(outcome.whole && { whole: true }), config },
          });
        } else if (outcome.why === 'failed') {
          set({ computing: false, playing: false, stopped: { why: 'failed', message: outcome.message, config } });
        }
      });
      idle = done;
    };
    // Before the first run arrives there is nothing to move over.
    const empty = () => get().events.length === 0;
    const moveTo = (cursor: number) => {
      const events = get().events;
      if (events.length === 0) return;
      const clamped = Math.max(0, Math.min(events.length - 1, cursor));
      sought(events[clamped]!.at);
      set({ cursor: clamped, playheadMs: events[clamped]!.at, stoppedAtViolation: false });
    };
    const endMs = () => get().events[get().events.length - 1]!.at;
    // A change of the story: the run before it goes on the undo stack, and redo forgets its future.
    // A learner looking at the end of the run (where the verdicts are final) stays at the end of the changed one.
    const keptTime = () =>
      get().events.length > 0 && get().playheadMs >= endMs() ? Number.MAX_SAFE_INTEGER : get().playheadMs;
    const change = (next: RunConfig, note: string, keepTimeMs = keptTime()) => {
      set({ undoStack: [...get().undoStack, { config: base(), note }], redoStack: [], storyNote: note });
      rerun(next, keepTimeMs);
    };
    // Undo and redo move one step between the two stacks, the run shown now going to the other.
    const travel = (from: 'undoStack' | 'redoStack', to: 'undoStack' | 'redoStack', verb: string) => {
      const step = get()[from].at(-1);
      if (!step) return;
      set({
        [from]: get()[from].slice(0, -1),
        [to]: [...get()[to], { config: base(), note: step.note }],
        storyNote: `${verb}: ${step.note}`,
      });
      rerun(step.config, keptTime());
    };
    const previews = previewRuns({
      run: (config) => simulator.preview(config),
      // A change made (or undone) since the preview was asked for makes its answer old news.
      ticket: () => latest,
      show: (run) => {
        const atMs = keptTime();
        set({
          ...run,
          cursor: cursorAtTime(run.events, atMs),
          playheadMs: Math.min(atMs, run.events[run.events.length - 1]!.at),
          selectedId: null,
        });
      },
      shown: () => ({ events: get().events, verdicts: get().verdicts, traceHash: get().traceHash, ended: get().ended }),
    });
    if (!shown) queueMicrotask(() => rerun(firstConfig, initial?.atMs ?? 0));

    return {
      events: shown?.events ?? [],
      verdicts: shown?.verdicts ?? [],
      traceHash: shown?.traceHash ?? '',
      ended: shown?.ended ?? null,
      scenario,
      simulator,
      config: firstConfig,
      requested: shown ? null : firstConfig,
      computing: !shown,
      stopped: null,
      cursor: 0,
      playheadMs: 0,
      playing: false,
      speed: 4,
      selectedId: null,
      autoPause: true,
      stoppedAtViolation: false,
      settings: { pauseMs: 15_000, clockJumpMs: 10_000 },
      undoStack: [],
      redoStack: [],
      storyNote: '',

      play: () => {
        if (empty()) return;
        if (get().cursor >= get().events.length - 1) moveTo(0);
        set({ playing: true, stoppedAtViolation: false });
      },
      pause: () => set({ playing: false }),
      tick: (realMs) => {
        const { playing, playheadMs, speed, events, autoPause, verdicts } = get();
        if (!playing || empty()) return;
        // A frame's timestamp can precede the moment playing began: such a tick must not move the
        // playhead back, or resuming right at a violation would cross it again and stop at once.
        let next = Math.min(endMs(), playheadMs + Math.max(0, realMs) * speed);
        const violationMs = autoPause ? firstViolationMs(verdicts) : null;
        // Stop exactly at the first violation when the playhead crosses it (not when starting on it).
        if (violationMs !== null && playheadMs < violationMs && next >= violationMs) {
          next = violationMs;
          set({ playheadMs: next, cursor: cursorAtTime(events, next), playing: false, stoppedAtViolation: true });
          return;
        }
        set({ playheadMs: next, cursor: cursorAtTime(events, next), playing: next < endMs() });
      },
      tickStep: () => {
        const { playing, playheadMs, events, autoPause, verdicts, cursor } = get();
        if (!playing || empty()) return;
        const target = nextStep(events, cursor);
        const violationMs = autoPause ? firstViolationMs(verdicts) : null;
        if (violationMs !== null && playheadMs < violationMs && events[target]!.at >= violationMs) {
          set({
            playheadMs: violationMs,
            cursor: cursorAtTime(events, violationMs),
            playing: false,
            stoppedAtViolation: true,
          });
          return;
        }
        set({ cursor: target, playheadMs: events[target]!.at, playing: target < events.length - 1 });
      },
      setSettings: (settings) => set({ settings: { ...get().settings, ...settings } }),
      stepForward: () => {
        set({ playing: false });
        moveTo(nextStep(get().events, get().cursor));
      },
      stepBack: () => {
        set({ playing: false });
        moveTo(previousStep(get().events, get().cursor));
      },
      reset: () => {
        set({ playing: false });
        moveTo(0);
      },
      seek: (cursor) => moveTo(cursor),
      seekTime: (ms) => {
        if (empty()) return;
        const clamped = Math.max(0, Math.min(endMs(), ms));
        sought(Math.max(0, ms));
        set({ playheadMs: clamped, cursor: cursorAtTime(get().events, clamped), stoppedAtViolation: false });
      },
      setSpeed: (speed) => set({ speed }),
      setSeed: (seed) => rerun({ ...base(), seed, actions: [] }, 0),
      setFencing: (fencing) => rerun({ ...base(), fencing }, 0),
      setAutoPause: (autoPause) => set({ autoPause }),
      act: (action) => {
        const at = get().playheadMs;
        change(
          { ...base(), actions: [...base().actions, { ...action, at: simTime(at) }] },
          `${describeAction(action)} at ${formatMs(at)}`,
          at,
        );
      },
      clearActions: () => {
        if (!isChanged(base())) return;
        const { edits: _edits, ...rest } = base();
        change({ ...rest, actions: [] }, 'back to the lesson’s run');
      },
      changeMark: (markChange) => {
        const next = applyMarkChange(scenario, base(), markChange);
        if (next) change(next, describeMarkChange(scenario, base(), next, markChange));
      },
      previewMark: (markChange) => {
        const next = markChange && applyMarkChange(scenario, base(), markChange);
        if (markChange === null) previews.stop();
        else previews.ask(next ?? base());
      },
      changeClient: (clientChange) => {
        const edit: ClientEdit = { edit: 'client', ...clientChange };
        const edits = base().edits ?? [];
        // Said against the run as it stands, so a second change of the same timing says where it went.
        const said = describeClientChanges(editScenario(scenario, edits), [edit]);
        if (said.length > 0) change({ ...base(), edits: [...edits, edit] }, said.join(', '));
      },
      undo: () => travel('undoStack', 'redoStack', 'Undone'),
      redo: () => travel('redoStack', 'undoStack', 'Redone'),
      load: (config, atMs = 0) => {
        set({ playing: false });
        rerun(config, atMs);
      },
      // Choosing an event (on the timeline, or a verdict's evidence) moves the playhead to it, so
      // the timeline, the inspector and the console all show the world as that event left it.
      select: (selectedId) => {
        const event = selectedId === null ? undefined : get().events[selectedId];
        if (!event) return set({ selectedId: null });
        sought(event.at);
        set({ selectedId, playing: false, cursor: event.id, playheadMs: event.at, stoppedAtViolation: false });
      },
      dismissStop: () => set({ stopped: null }),
      settled: async () => {
        for (let seen = idle; ; seen = idle) {
          await seen;
          if (idle === seen) return;
        }
      },
    };
  });
  return store;
}
