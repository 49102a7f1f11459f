import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostic';
import { actionsSchema, checkActions } from '../schema/actionSchema';
import { exploreScenario, scenarioExplorer } from './explore';
import { faultActionsInOrder } from '../../check/faults';
import { scheduleAt } from '../../check/explorer';
import { parseScenario } from '../text/parse';
import type { Scenario } from '../schema/schema';
import { Simulation } from './simulation';
import { loadTestScripts } from '../../testing/testKit';
import { loadScriptEngine } from './run';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { Action } from '../../actors/action';
import { simTime } from '../../sim/time';

let scripts: ScriptEngine;
beforeAll(async () => {
  await loadTestScripts();
  scripts = await loadScriptEngine();
});

/** Two baristas taking turns: as written, nothing goes wrong. */
const TURNS = `
id: turns
title: Two baristas take turns
seed: 7
clients:
  - { id: A, recipe: lease-with-token, ttl: 5s, work: 2s }
  - { id: B, recipe: lease-with-token, ttl: 5s, work: 2s, startAt: 1s }
resource: { id: espresso }
`;

function scenario(yaml: string): Scenario {
  const parsed = parseScenario(yaml, { file: 'turns.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.scenario;
}

describe('exploreScenario', () => {
  it('counts the runs the event cap cut short, so a search that found nothing can say it', () => {
    // B knocks every millisecond for a minute while A holds the lock: far more than 50,000 events.
    const s = scenario(`
id: knocking
title: A barista who never stops knocking
horizon: 60s
clients:
  - { id: A, recipe: lease-with-token, ttl: 60s, work: 59s }
  - { id: B, recipe: lease-with-token, ttl: 5s, work: 1s, startAt: 10ms, retry: { policy: fixed, delay: 1ms } }
resource: { id: espresso }
`);
    // As written (the search's first run) it is cut; some fault schedules stop B's knocking.
    expect(exploreScenario(s, { invariant: 'single-writer', explorerSeed: 1, runs: 1 }, scripts).summary).toMatchObject(
      { runs: 1, cut: 1 },
    );
    const result = exploreScenario(s, { invariant: 'single-writer', explorerSeed: 1, runs: 3 }, scripts);
    expect(result.found).toBe(false);
    expect(result.summary.cut).toBeGreaterThanOrEqual(1);
    expect(
      exploreScenario(scenario(TURNS), { invariant: 'single-lease', explorerSeed: 1, runs: 3 }, scripts).summary.cut,
    ).toBe(0);
  });

  it('finds the paused barista on its own: a minimal schedule that breaks single-writer, replayable', () => {
    const s = scenario(TURNS);
    expect(
      new Simulation(s, {}, scripts)
        .run()
        .verdicts()
        .find((v) => v.invariant === 'single-writer')!.holds,
    ).toBe(true);
    const result = exploreScenario(s, { invariant: 'single-writer', explorerSeed: 1 }, scripts);
    expect(result.found).toBe(true);
    expect(result.actions.length).toBeGreaterThanOrEqual(1);
    expect(result.actions.length).toBeLessThanOrEqual(2);
    // Replaying (scenario, seed, actions) shows the same violation.
    const replay = new Simulation(s, { seed: result.seed, actions: result.actions as Action[] }, scripts).run();
    const v = replay.verdicts().find((x) => x.invariant === 'single-writer')!;
    expect(v.holds).toBe(false);
    expect(v.eventIds).toEqual(result.verdict!.eventIds);
    // Minimal: dropping any one action makes the violation go away.
    for (let i = 0; i < result.actions.length; i++) {
      const fewer = result.actions.filter((_, j) => j !== i) as Action[];
      const rerun = new Simulation(s, { seed: result.seed, actions: fewer }, scripts).run();
      expect(rerun.verdicts().find((x) => x.invariant === 'single-writer')!.holds).toBe(true);
    }
  });

  it('gives the same answer for the same explorer seed', () => {
    const s = scenario(TURNS);
    const a = exploreScenario(s, { invariant: 'single-holder', explorerSeed: 9, runs: 50 }, scripts);
    const b = exploreScenario(s, { invariant: 'single-holder', explorerSeed: 9, runs: 50 }, scripts);
    expect(a).toEqual(b);
    expect(a.found).toBe(true);
  });

  it('answers the reference scenario with r1 restarting under A (what `npm run sim -- ... --explore single-writer` prints)', () => {
    const s = scenario(readFileSync('lessons/scenarios/explore-turns.yaml', 'utf8'));
    const result = exploreScenario(s, { invariant: 'single-writer' }, scripts);
    expect({ seed: result.seed, actions: result.actions }).toEqual({
      seed: 7,
      actions: [
        { at: simTime(1200), do: 'crash', target: 'r1' },
        { at: simTime(1500), do: 'restart', target: 'r1' },
      ],
    });
  });
});

describe('the faults a scenario offers', () => {
  it('offers message loss on the links clients use, and no failover without a replica', () => {
    const { space } = scenarioExplorer(scenario(TURNS), { invariant: 'single-writer' }, scripts);
    expect(space.kinds).toEqual(['pause', 'crash', 'restart', 'partition', 'clock-jump', 'message-loss']);
    expect(space.processes).toEqual(['A', 'B', 'r1']);
    expect(space.links.map((l) => `${l.from}->${l.to}`)).toEqual(['A->r1', 'r1->A', 'B->r1', 'r1->B']);
  });

  it('fails over the Sentinel group where the scenario has one', () => {
    const s = scenario(readFileSync('lessons/scenarios/failover-lost-lock.yaml', 'utf8'));
    const { space } = scenarioExplorer(s, { invariant: 'single-writer' }, scripts);
    expect(space.kinds).toContain('failover');
    expect(space.failoverTargets).toHaveLength(1);
    // Replication links can lose messages too.
    expect(
      space.links.some((l) => s.redis.nodes.some((n) => n.id === l.from) && s.redis.nodes.some((n) => n.id === l.to)),
    ).toBe(true);
  });

  it('only makes schedules a learner could have made: every one passes the share link checks', () => {
    for (const file of ['lessons/scenarios/failover-lost-lock.yaml', 'lessons/scenarios/explore-turns.yaml']) {
      const s = scenario(readFileSync(file, 'utf8'));
      const options = scenarioExplorer(s, { invariant: 'single-writer', maxFaults: 5 }, scripts);
      const seen = new Set<string>();
      for (let i = 1; i < 300; i++) {
        const actions = faultActionsInOrder(scheduleAt(options, i).faults);
        expect(actionsSchema.safeParse(actions).success).toBe(true);
        checkActions(s, actions as Action[], (path, message) =>
          expect.fail(`${file} schedule ${i}: ${path.join('.')}: ${message}`),
        );
        for (const a of actions) seen.add(a.do);
      }
      expect([...seen].sort()).toEqual(
        expect.arrayContaining(['clock-jump', 'crash', 'heal', 'network', 'partition', 'pause', 'restart']),
      );
    }
  });

  it('tries only the kinds asked for', () => {
    const { space } = scenarioExplorer(
      scenario(TURNS),
      { invariant: 'single-writer', kinds: ['pause', 'failover'] },
      scripts,
    );
    expect(space.kinds).toEqual(['pause']);
  });
});
