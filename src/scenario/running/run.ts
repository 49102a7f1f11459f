import type { Verdict } from '../../check/verdict';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Scenario } from '../schema/schema';
import type { TraceEvent } from '../../sim/traceEvents';
import { Simulation, type EndReason, type RunOptions } from './simulation';

export interface RunResult {
  scenario: string;
  seed: number;
  /** Number of trace events. */
  events: number;
  traceHash: string;
  verdicts: Verdict[];
  /** Why the run stopped: by itself ('idle'), at its horizon, or cut by a budget. */
  ended: EndReason | null;
}

let engine: Promise<ScriptEngine> | undefined;

/**
 * Loads the Lua VM once. It is WebAssembly, so loading is asynchronous; running a script
 * afterwards is synchronous, which keeps the kernel synchronous. The import is dynamic so
 * pages that never simulate do not download the VM. Browsers pass the bundled wasm's URL
 * (see src/redis/lua/wasmUrl.ts); Node reads the file from the repository.
 */
export function loadScriptEngine(options: { wasmUrl?: string } = {}): Promise<ScriptEngine> {
  engine ??= import('../../redis/lua').then((lua) => lua.loadLuaEngine(options));
  // A failed load (say, the network dropped) must not poison every later attempt.
  engine.catch(() => (engine = undefined));
  return engine;
}

/** Runs a scenario headless to the end and summarises it. */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<RunResult> {
  const simulation = new Simulation(scenario, options, await loadScriptEngine()).run();
  return summarize(simulation);
}

/** Like runScenario, with the run's whole trace (lessons:check reads it to check a lesson's claims). */
export async function runScenarioTrace(
  scenario: Scenario,
  options: RunOptions = {},
): Promise<RunResult & { trace: TraceEvent[] }> {
  const simulation = new Simulation(scenario, options, await loadScriptEngine()).run();
  return { ...summarize(simulation), trace: simulation.sim.trace.toArray() };
}

export function summarize(simulation: Simulation): RunResult {
  return {
    scenario: simulation.scenario.id,
    seed: simulation.seed,
    events: simulation.sim.trace.length,
    traceHash: simulation.sim.trace.hash(),
    verdicts: simulation.verdicts(),
    ended: simulation.ended,
  };
}
