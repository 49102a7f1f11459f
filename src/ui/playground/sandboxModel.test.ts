import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { formatDiagnostic } from '../../scenario/diagnostic';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import { computeRun } from '../worker/computeRun';
import { exportScenarioYaml } from '../../scenario/text/toYaml';
import { DEFAULT_SANDBOX, nextClientId, sandboxScenario } from './sandboxModel';
import { simTime } from '../../sim/time';

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

describe('the sandbox', () => {
  it('builds a runnable scenario from the form, with every control on', () => {
    const built = sandboxScenario(DEFAULT_SANDBOX);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.scenario.controls).toContain('partition');
    expect(built.scenario.clients.map((c) => [c.id, c.ttl])).toEqual([
      ['A', 10_000],
      ['B', 10_000],
    ]);
  });

  it('says what is wrong with a form that makes no sense', () => {
    const built = sandboxScenario({ ...DEFAULT_SANDBOX, clients: [{ ...DEFAULT_SANDBOX.clients[0]!, ttlS: 0 }] });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.message).toMatch(/ttl/);
  });

  it('exports a file that parses back and replays the learner run exactly (same trace hash)', () => {
    const built = sandboxScenario({ ...DEFAULT_SANDBOX, nodes: 2 });
    if (!built.ok) throw new Error(built.message);
    const actions = [
      { at: simTime(1500), do: 'pause' as const, target: 'A', forMs: 12_000 },
      { at: simTime(2000), do: 'partition' as const, groups: [['B'], ['r1']], oneWay: true },
      { at: simTime(2500), do: 'command' as const, target: 'r2', argv: ['SET', 'k', 'two words'] },
      { at: simTime(3000), do: 'clock-jump' as const, target: 'r1', byMs: 1250 },
      { at: simTime(9000), do: 'heal' as const },
    ];
    const live = computeRun(built.scenario, { seed: built.scenario.seed, fencing: true, actions }, scripts);
    const yaml = exportScenarioYaml(built.scenario, actions, true);
    const parsed = parseScenario(yaml, { file: 'sandbox.yaml', line: 1 });
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    const replayed = computeRun(
      parsed.scenario,
      { seed: parsed.scenario.seed, fencing: parsed.scenario.resource.fencing, actions: [] },
      scripts,
    );
    // Learner actions come back as scripted steps: same world, same events, only the source differs.
    const strip = (events: typeof live.events) =>
      events.map((e) => (e.kind === 'action.apply' ? { ...e, data: { ...e.data, source: 'x' } } : e));
    expect(strip(replayed.events)).toEqual(strip(live.events));
  });

  it('reports a bad file as file:line:col', () => {
    const parsed = parseScenario(
      'id: x\ntitle: T\nclients:\n  - { id: A, recipe: lease-with-tokn, ttl: 1s }\nresource: { id: s }\n',
      { file: 'mine.yaml', line: 1 },
    );
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && formatDiagnostic(parsed.diagnostics[0]!)).toMatch(/^mine\.yaml:4:\d+: /);
  });

  it('names new clients A, B, C… skipping taken ids', () => {
    expect(
      nextClientId([
        { ...DEFAULT_SANDBOX.clients[0]!, id: 'A' },
        { ...DEFAULT_SANDBOX.clients[0]!, id: 'C' },
      ]),
    ).toBe('B');
  });
});
