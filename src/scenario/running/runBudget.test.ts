import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { parseScenario } from '../text/parse';
import { loadScriptEngine } from './run';
import { DEFAULT_MAX_SCRIPT_INSTRUCTIONS, PROGRESS_STEPS, Simulation } from './simulation';

// Issue 18: clients that keep starting runaway scripts would compute for minutes. (A script cut
// by its own budget answers with an error, which stops the client that sent it, so the runaway
// work here comes from several clients each sending one.)
const RUNAWAY = `
id: runaway-scripts
title: Runaway scripts
horizon: 3s
clients:
${['A', 'B', 'C', 'D', 'E'].map((id, i) => `  - { id: ${id}, startAt: ${i}ms, steps: [{ redis: [EVAL, 'while true do end', '0'], as: acquire }, { write: espresso }] }`).join('\n')}
resource: { id: espresso }
`;

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

function scenario() {
  const parsed = parseScenario(RUNAWAY, { file: 'runaway.yaml', line: 1 });
  if (!parsed.ok) throw new Error('bad test scenario');
  return parsed.scenario;
}

describe('the whole-run script budget', () => {
  it('stops a run whose scripts keep running away, after the same few scripts every time, and says why', () => {
    const run = () => new Simulation(scenario(), {}, scripts).run();
    const first = run();
    expect(first.ended).toBe('script-cap');
    // Each cut script counts its full per-script budget (20 million), so the third one ends the run.
    expect(first.sim.trace.toArray().filter((e) => e.kind === 'redis.command')).toHaveLength(
      DEFAULT_MAX_SCRIPT_INSTRUCTIONS / 20_000_000,
    );
    const verdict = first.verdicts().find((v) => v.invariant === 'run-completes');
    expect(verdict?.holds).toBe(false);
    expect(verdict?.explanation).toMatch(
      /^This run was stopped: its Lua scripts ran more than 60 million instructions in all/,
    );
    expect(verdict?.atMs).toBe(4);
    expect(run().sim.trace.hash()).toBe(first.sim.trace.hash());
  }, 30_000);

  it('leaves ordinary lock scripts alone: clients releasing with a script take turns to the end', () => {
    const yaml =
      'id: p\ntitle: P\nclients:\n  - { id: A, recipe: lease-with-token, ttl: 10s, jobs: 20 }\n  - { id: B, recipe: lease-with-token, ttl: 10s, jobs: 20 }\nresource: { id: r }\n';
    const parsed = parseScenario(yaml, { file: 'p.yaml', line: 1 });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed));
    const run = new Simulation(parsed.scenario, {}, scripts).run();
    expect(run.ended).toBe('idle');
    expect(run.sim.trace.toArray().filter((e) => e.kind === 'lock.released')).toHaveLength(40);
  });
});

describe('a run that says it moves on', () => {
  it('calls onProgress every PROGRESS_STEPS steps (the page watchdog hears a long run is alive) and runs exactly as without it', () => {
    const clients = Array.from(
      { length: 50 },
      (_, i) =>
        `  - { id: C${i}, recipe: lease-with-token, ttl: 2s, work: 100ms, retry: { policy: fixed, delay: 1ms } }`,
    );
    const parsed = parseScenario(
      `id: p\ntitle: P\nhorizon: 300ms\nclients:\n${clients.join('\n')}\nresource: { id: r }\n`,
      { file: 'p.yaml', line: 1 },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed));
    let heard = 0;
    const told = new Simulation(parsed.scenario, { onProgress: () => heard++ }, scripts).run();
    expect(told.steps).toBeGreaterThan(2 * PROGRESS_STEPS);
    expect(heard).toBe(Math.floor(told.steps / PROGRESS_STEPS));
    expect(told.sim.trace.hash()).toBe(new Simulation(parsed.scenario, {}, scripts).run().sim.trace.hash());
  });
});
