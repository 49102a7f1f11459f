import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../redis/scriptEngine';
import { parseScenario } from '../scenario/text/parse';
import { loadScriptEngine } from '../scenario/running/run';
import { Simulation } from '../scenario/running/simulation';
import { CIRCUIT_BREAKER_LANE_STATES } from './client/circuitBreakerMachine';
import { LOCK_CLIENT_LANE_STATES } from './client/lockClientMachine';
import { SENTINEL_LANE_STATES } from './sentinel/sentinelMachine';
import { STEP_CLIENT_LANE_STATES } from './client/stepClientMachine';

const DIR = 'lessons/scenarios';
let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

/** What each lane showed over every reference scenario, by kind of actor. */
function shownStates(): Map<string, Set<string>> {
  const shown = new Map<string, Set<string>>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.yaml'))) {
    const parsed = parseScenario(readFileSync(join(DIR, file), 'utf8'), { file, line: 1 });
    if (!parsed.ok) throw new Error(`${file} does not parse`);
    const steps = new Set(parsed.scenario.clients.filter((c) => c.steps).map((c) => c.id));
    const events = new Simulation(parsed.scenario, {}, scripts).run().sim.trace.toArray();
    const start = events.find((e) => e.kind === 'run.start')!;
    const roles = new Map((start.kind === 'run.start' ? start.data.actors : []).map((a) => [a.id, a.role]));
    for (const e of events) {
      if (e.kind !== 'actor.state') continue;
      const kind = steps.has(e.actor) ? 'step client' : roles.get(e.actor)!;
      if (!shown.has(kind)) shown.set(kind, new Set());
      shown.get(kind)!.add(e.data.state);
    }
  }
  return shown;
}

describe('lane states', () => {
  it('are only ever the states each machine module declares', () => {
    const shown = shownStates();
    expect([...shown.keys()].sort()).toEqual(['client', 'sentinel', 'step client']);
    for (const state of shown.get('client')!)
      expect([...LOCK_CLIENT_LANE_STATES, ...CIRCUIT_BREAKER_LANE_STATES]).toContain(state);
    for (const state of shown.get('step client')!) expect(STEP_CLIENT_LANE_STATES).toContain(state);
    for (const state of shown.get('sentinel')!) expect(SENTINEL_LANE_STATES).toContain(state);
    // The lock client's pause between tries is `retrying`, the step clients' word for it too.
    expect(shown.get('client')).toContain('retrying');
    expect(shown.get('client')).not.toContain('waiting');
  });
});
