import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../../scenario/schema/schema';
import { answerRead, type ConsoleRead } from '../player/consoleRead';
import { RunInspector, type Inspection } from '../player/inspect';
import type { ComputedRun, RunConfig } from '../player/runModel';
import { computeRun } from './computeRun';
import { packRun, type RunParcel } from './runParcel';

/**
 * Everything the page asks of the simulator. It runs inside the simulation worker
 * (simulationWorker.ts), and in-process in Node tests: the functions only need a script engine.
 * Every argument and result is plain data, so it crosses the worker boundary by structured clone
 * (a run's events as JSON text: see runParcel.ts).
 */
export interface SimulationApi {
  /** Runs the scenario to the end with the given seed, fencing and learner actions; the run comes packed for the page. */
  run(scenario: Scenario, config: RunConfig): RunParcel;
  /** The world after event `cursor` of that run (see RunInspector). */
  inspect(scenario: Scenario, config: RunConfig, cursor: number, playheadMs: number): Inspection;
  /** The console's reads, each answered at its moment of that run without becoming part of it. */
  read(scenario: Scenario, config: RunConfig, reads: ConsoleRead[]): (string[] | null)[];
}

/** Runs kept for the inspector: each player asks about its own current run, so a few suffice. */
const KEPT_RUNS = 8;

/**
 * The simulator's API over one script engine. `onProgress` is called as any of its runs or
 * replays moves on: the worker tells the page's watchdog that a long job is not stuck.
 */
export function createSimulationApi(scripts: ScriptEngine, onProgress?: () => void): SimulationApi {
  // The inspector replays a run step by step and needs that run's events; both are kept for the
  // last few runs asked about, so moving the playhead costs a few steps, not a whole run.
  const kept = new Map<string, { events: ComputedRun['events']; inspector: RunInspector }>();
  const keep = (scenario: Scenario, config: RunConfig, events: ComputedRun['events']) => {
    const key = runKey(scenario, config);
    kept.delete(key);
    kept.set(key, { events, inspector: new RunInspector(scenario, config, scripts, onProgress) });
    if (kept.size > KEPT_RUNS) kept.delete(kept.keys().next().value!);
    return kept.get(key)!;
  };
  return {
    run(scenario, config) {
      const run = computeRun(scenario, config, scripts, onProgress);
      keep(scenario, config, run.events);
      return packRun(run, onProgress);
    },
    inspect(scenario, config, cursor, playheadMs) {
      const entry =
        kept.get(runKey(scenario, config)) ??
        keep(scenario, config, computeRun(scenario, config, scripts, onProgress).events);
      return entry.inspector.at(entry.events, cursor, playheadMs);
    },
    read: (scenario, config, reads) => reads.map((read) => answerRead(scenario, config, read, scripts, onProgress)),
  };
}

/** Identifies a run: the scenario (its whole text, since the sandbox edits scenarios in place) and the config. */
function runKey(scenario: Scenario, config: RunConfig): string {
  return JSON.stringify([scenario, config]);
}
