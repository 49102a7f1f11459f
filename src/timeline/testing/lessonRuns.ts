import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Verdict } from '../../check/verdict';
import { parseLesson } from '../../lessons/parse';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../../scenario/diagnostic';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import { Simulation, type RunOptions } from '../../scenario/running/simulation';
import type { TraceEvent } from '../../sim/traceEvents';

/**
 * Real runs for the timeline's tests: the simulator's own traces of the lessons' scenarios, so
 * the timeline is tested against what it will be shown, never against a trace written by hand.
 * Test support only (Node): it reads lesson files and runs the simulation, which the timeline
 * itself must never import.
 */

const LESSONS = 'lessons';

/** One scenario block of a lesson, in lesson order. */
export interface LessonScenario {
  /** `05-paused-barista.md#paused-barista`, as `npm run sim` names it. */
  spec: string;
  scenario: Scenario;
}

/** Every scenario block in every lesson (a `ref:` to lessons/scenarios/ included), lesson by lesson. */
export function lessonScenarios(): LessonScenario[] {
  const files = readdirSync(LESSONS)
    .filter((f) => /^\d\d-.*\.md$/.test(f))
    .sort();
  return files.flatMap((file) => {
    const path = join(LESSONS, file);
    const { lesson, diagnostics } = parseLesson(readFileSync(path, 'utf8'), path, {
      readRef: (rel) => readFileSync(join(dirname(path), rel), 'utf8'),
    });
    if (!lesson) throw new Error(diagnostics.map(formatDiagnostic).join('\n'));
    return lesson.blocks.flatMap((b) =>
      b.kind === 'scenario' ? [{ spec: `${file}#${b.scenario.id}`, scenario: b.scenario }] : [],
    );
  });
}

/** The scenario `lessons/scenarios/<name>.yaml`. */
export function referenceScenario(name: string): Scenario {
  const path = join(LESSONS, 'scenarios', `${name}.yaml`);
  const parsed = parseScenario(readFileSync(path, 'utf8'), { file: path, line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.scenario;
}

/** A finished run: its whole trace and its verdicts. */
export interface Run {
  events: TraceEvent[];
  verdicts: Verdict[];
}

let scripts: ScriptEngine | undefined;

/** Loads the Lua VM once (call in beforeAll before `run`). */
export async function loadScripts(): Promise<void> {
  scripts = await loadScriptEngine();
}

/** Runs a scenario to the end. */
export function run(scenario: Scenario, options: RunOptions = {}): Run {
  if (!scripts) throw new Error('call loadScripts() in beforeAll first');
  const simulation = new Simulation(scenario, options, scripts).run();
  return { events: simulation.sim.trace.toArray(), verdicts: simulation.verdicts() };
}
