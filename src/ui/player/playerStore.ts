import { createStore } from 'zustand/vanilla';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema';
import type { ProcessAction } from '../../actors/world';
import type { ActionSettings } from './actorActions';
import { computeRun, cursorAtTime, firstViolationMs, nextStep, previousStep, type ComputedRun, type RunConfig } from './runModel';

export interface PlayerState extends ComputedRun {
  scenario: Scenario;
  /** The Lua VM the runs use (the inspector replays with it). */
  scripts: ScriptEngine;
  config: RunConfig;
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
  act(action: ProcessAction): void;
  /** Drops the learner's actions: back to the scenario as written. */
  clearActions(): void;
  /** Replaces the whole run configuration (a share link being opened). */
  load(config: RunConfig): void;
  select(id: number | null): void;
}

export type PlayerStore = ReturnType<typeof createPlayerStore>;

/**
 * One embedded simulation's state. The run is computed whole (it takes milliseconds), and
 * playing, stepping and stepping back just move a cursor over its trace. A learner action
 * re-runs the same scenario and seed with one more action: everything before it is identical,
 * because the simulation is deterministic.
 */
export function createPlayerStore(scenario: Scenario, scripts: ScriptEngine, initial?: Partial<RunConfig>) {
  const firstConfig: RunConfig = {
    seed: initial?.seed ?? scenario.seed,
    fencing: initial?.fencing ?? scenario.resource.fencing,
    actions: initial?.actions ?? [],
  };
  return createStore<PlayerState>()((set, get) => {
    const rerun = (config: RunConfig, keepTimeMs: number) => {
      const run = computeRun(scenario, config, scripts);
      const cursor = cursorAtTime(run.events, keepTimeMs);
      set({ ...run, config, cursor, playheadMs: Math.min(keepTimeMs, run.events[run.events.length - 1]!.at), selectedId: null, stoppedAtViolation: false });
    };
    const moveTo = (cursor: number) => {
      const events = get().events;
      const clamped = Math.max(0, Math.min(events.length - 1, cursor));
      set({ cursor: clamped, playheadMs: events[clamped]!.at, stoppedAtViolation: false });
    };
    const endMs = () => get().events[get().events.length - 1]!.at;

    return {
      ...computeRun(scenario, firstConfig, scripts),
      scenario,
      scripts,
      config: firstConfig,
      cursor: 0,
      playheadMs: 0,
      playing: false,
      speed: 4,
      selectedId: null,
      autoPause: true,
      stoppedAtViolation: false,
      settings: { pauseMs: 15_000, clockJumpMs: 10_000 },

      play: () => {
        if (get().cursor >= get().events.length - 1) moveTo(0);
        set({ playing: true, stoppedAtViolation: false });
      },
      pause: () => set({ playing: false }),
      tick: (realMs) => {
        const { playing, playheadMs, speed, events, autoPause, verdicts } = get();
        if (!playing) return;
        let next = Math.min(endMs(), playheadMs + realMs * speed);
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
        if (!playing) return;
        const target = nextStep(events, cursor);
        const violationMs = autoPause ? firstViolationMs(verdicts) : null;
        if (violationMs !== null && playheadMs < violationMs && events[target]!.at >= violationMs) {
          set({ playheadMs: violationMs, cursor: cursorAtTime(events, violationMs), playing: false, stoppedAtViolation: true });
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
        const clamped = Math.max(0, Math.min(endMs(), ms));
        set({ playheadMs: clamped, cursor: cursorAtTime(get().events, clamped), stoppedAtViolation: false });
      },
      setSpeed: (speed) => set({ speed }),
      setSeed: (seed) => rerun({ ...get().config, seed, actions: [] }, 0),
      setFencing: (fencing) => rerun({ ...get().config, fencing }, 0),
      setAutoPause: (autoPause) => set({ autoPause }),
      act: (action) => {
        const at = get().playheadMs;
        rerun({ ...get().config, actions: [...get().config.actions, { ...action, at }] }, at);
      },
      clearActions: () => rerun({ ...get().config, actions: [] }, get().playheadMs),
      load: (config) => {
        set({ playing: false });
        rerun(config, 0);
      },
      select: (selectedId) => set({ selectedId }),
    };
  });
}
