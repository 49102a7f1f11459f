import type { ScriptEngine } from '../redis/scriptEngine';
import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import { formatDiagnostic } from '../scenario/diagnostic';
import { parseScenario } from '../scenario/text/parse';
import { loadScriptEngine } from '../scenario/running/run';
import { Simulation, type RunOptions } from '../scenario/running/simulation';

/** Events of one kind, typed. */
export type EventOf<K extends TraceKind> = Extract<TraceEvent, { kind: K }>;

/** A finished run with helpers for assertions: events by kind, verdicts by name. */
export interface TestRun {
  simulation: Simulation;
  events: TraceEvent[];
  of<K extends TraceKind>(kind: K, actor?: string): EventOf<K>[];
  verdict(name: string): {
    holds: boolean;
    atMs: number | null;
    eventIds: number[];
    explanation: string;
    violations: number;
  };
}

let scripts: ScriptEngine | undefined;

/** Loads the Lua VM once for a test file (call in beforeAll). */
export async function loadTestScripts(): Promise<void> {
  scripts = await loadScriptEngine();
}

/**
 * Parses a YAML scenario (failing loudly on any diagnostic) and runs it to the end.
 * For tests: `runYaml(\`id: x ...\`).verdict('single-writer').holds`.
 */
export function runYaml(yaml: string, options: RunOptions = {}): TestRun {
  const parsed = parseScenario(yaml, { file: 'test.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  const simulation = new Simulation(parsed.scenario, options, scripts).run();
  const events = simulation.sim.trace.toArray();
  const verdicts = simulation.verdicts();
  return {
    simulation,
    events,
    of: <K extends TraceKind>(kind: K, actor?: string) =>
      events.filter((e): e is EventOf<K> => e.kind === kind && (actor === undefined || e.actor === actor)),
    verdict: (name) => {
      const v = verdicts.find((x) => x.invariant === name);
      if (!v) throw new Error(`no verdict '${name}' (have ${verdicts.map((x) => x.invariant).join(', ')})`);
      return v;
    },
  };
}
