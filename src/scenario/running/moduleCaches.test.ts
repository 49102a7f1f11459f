import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../diagnostic';
import { parseScenario } from '../text/parse';
import { loadScriptEngine } from './run';
import type { Scenario } from '../schema/schema';
import { Simulation } from './simulation';

/**
 * The core keeps a few caches at module level, across runs: interned trace data and the lock
 * client's starting snapshot (actors/lockClientCaches.ts), reused trace columns (sim/trace.ts),
 * step lists, command lookups, compiled script hashes. Each is only worth having if it is pure:
 * a run must record the same trace whatever ran before it in the same process, as the explorer's
 * thousands of runs a second and a page that plays one lesson after another rely on.
 */
const DIR = 'lessons/scenarios';
const scenarios: Scenario[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => {
    const parsed = parseScenario(readFileSync(join(DIR, f), 'utf8'), { file: join(DIR, f), line: 1 });
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    return parsed.scenario;
  });

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

/** The run's trace hash; its trace is released afterwards, so the next run reuses its columns. */
function hashOf(scenario: Scenario, seed = scenario.seed): string {
  const simulation = new Simulation(scenario, { seed }, scripts).run();
  const hash = simulation.sim.trace.hash();
  simulation.sim.trace.release();
  return hash;
}

describe('module caches', () => {
  it('change no run: every reference scenario gives the same trace run first to last, last to first, and between runs of other seeds', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40);
    const forward = scenarios.map((s) => hashOf(s));
    const backward = [...scenarios]
      .reverse()
      .map((s) => hashOf(s))
      .reverse();
    expect(backward).toEqual(forward);
    // Each run preceded by a neighbour's run at another seed (other keys, inputs and scripts cached).
    const interleaved = scenarios.map((s, i) => {
      const other = scenarios[(i + 7) % scenarios.length]!;
      hashOf(other, other.seed + 1);
      return hashOf(s);
    });
    expect(interleaved).toEqual(forward);
  }, 180_000);
});
