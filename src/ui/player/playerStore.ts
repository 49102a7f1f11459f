import { createStore } from 'zustand/vanilla';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema';
import type { ProcessAction } from '../../actors/world';
import { computeRun, cursorAtTime, nextStep, previousStep, type ComputedRun, type RunConfig } from './runModel';

export interface PlayerState extends ComputedRun {
  scenario: Scenario;
  config: RunConfig;
  /** Index of the current event: events 0..cursor have happened. */
  cursor: number;
  /** Virtual time of the playhead (between events while playing). */
  playheadMs: number;
  playing: boolean;
  /** Virtual seconds per real second. */
  speed: number;
  selectedId: number | null;

  play(): void;
  pause(): void;
  /** Advances the playhead by `realMs` of wall time (called per animation frame). */
  tick(realMs: number): void;
  stepForward(): void;
  stepBack(): void;
  reset(): void;
  seek(cursor: number): void;
  setSpeed(speed: number): void;
  setSeed(seed: number): void;
  setFencing(on: boolean): void;
  /** Applies an action at the playhead's time and re-runs; the past stays as it was. */
  act(action: ProcessAction): void;
  /** Drops the learner's actions: back to the scenario as written. */
  clearActions(): void;
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
      set({ ...run, config, cursor, playheadMs: Math.min(keepTimeMs, run.events[run.events.length - 1]!.at), selectedId: null });
    };
    const moveTo = (cursor: number) => {
      const events = get().events;
      const clamped = Math.max(0, Math.min(events.length - 1, cursor));
      set({ cursor: clamped, playheadMs: events[clamped]!.at });
    };
    const endMs = () => get().events[get().events.length - 1]!.at;

    return {
      ...computeRun(scenario, firstConfig, scripts),
      scenario,
      config: firstConfig,
      cursor: 0,
      playheadMs: 0,
      playing: false,
      speed: 4,
      selectedId: null,

      play: () => {
        if (get().cursor >= get().events.length - 1) moveTo(0);
        set({ playing: true });
      },
      pause: () => set({ playing: false }),
      tick: (realMs) => {
        const { playing, playheadMs, speed, events } = get();
        if (!playing) return;
        const next = Math.min(endMs(), playheadMs + realMs * speed);
        set({ playheadMs: next, cursor: cursorAtTime(events, next), playing: next < endMs() });
      },
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
      setSpeed: (speed) => set({ speed }),
      setSeed: (seed) => rerun({ ...get().config, seed, actions: [] }, 0),
      setFencing: (fencing) => rerun({ ...get().config, fencing }, 0),
      act: (action) => {
        const at = get().playheadMs;
        rerun({ ...get().config, actions: [...get().config.actions, { ...action, at }] }, at);
      },
      clearActions: () => rerun({ ...get().config, actions: [] }, get().playheadMs),
      select: (selectedId) => set({ selectedId }),
    };
  });
}
