import { readFileSync } from 'node:fs';
import { simTime } from '../sim/time';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { loadTestScripts, runYaml } from '../testing/testKit';
import { Simulation } from '../scenario/running/simulation';
import { loadScriptEngine } from '../scenario/running/run';
import { Trace } from '../sim/trace';
import type { TraceEvent } from '../sim/traceEvents';
import { checkSingleLease } from './singleLease';

/** Builds a small trace by hand: [time, kind, actor, data]. */
function trace(rows: [number, string, string, object][]): TraceEvent[] {
  const t = new Trace();
  t.append(simTime(0), 'run.start', 'world', { scenario: 't', seed: 1, actors: [] });
  for (const [at, kind, actor, data] of rows) t.append(simTime(at), kind as never, actor, data as never);
  return t.toArray();
}

const grantA = (at: number, node: string) =>
  [at, 'lease.granted', node, { key: 'lock', owner: 'A', value: 'a', expiresAtMs: 10_000 }] as [
    number,
    string,
    string,
    object,
  ];
const grantB = (at: number, node: string) =>
  [at, 'lease.granted', node, { key: 'lock', owner: 'B', value: 'b', expiresAtMs: 10_000 }] as [
    number,
    string,
    string,
    object,
  ];

describe('single-lease: only a primary grants', () => {
  const replicaOf = (node: string, primary: string) =>
    [0, 'redis.role', node, { role: 'replica', of: primary, reason: 'configured' }] as [number, string, string, object];

  it("a replica's not-yet-deleted copy of A's key is no second grant when the primary hands the key to B", () => {
    const events = trace([
      replicaOf('replica', 'primary'),
      grantA(1, 'primary'),
      grantA(500, 'replica'),
      [900, 'lease.ended', 'primary', { key: 'lock', owner: 'A', reason: 'deleted' }],
      grantB(950, 'primary'),
      [1000, 'lease.ended', 'replica', { key: 'lock', owner: 'A', reason: 'deleted' }],
    ]);
    expect(checkSingleLease(events, () => 1).holds).toBe(true);
  });

  it("a promoted replica still holding A's copy while the old primary grants B: broken at the promotion", () => {
    const events = trace([
      replicaOf('replica', 'primary'),
      grantA(1, 'primary'),
      grantA(500, 'replica'),
      [900, 'lease.ended', 'primary', { key: 'lock', owner: 'A', reason: 'deleted' }],
      grantB(950, 'primary'),
      [960, 'redis.role', 'replica', { role: 'primary', of: null, reason: 'failover' }],
    ]);
    const v = checkSingleLease(events, () => 1);
    expect(v.holds).toBe(false);
    expect(v.atMs).toBe(960);
    expect(v.eventIds).toEqual([3, 5]);
  });

  it('a demoted primary stops granting', () => {
    const events = trace([
      grantA(1, 'old'),
      [100, 'redis.role', 'old', { role: 'replica', of: 'new', reason: 'rejoined' }],
      grantB(200, 'new'),
    ]);
    expect(checkSingleLease(events, () => 1).holds).toBe(true);
  });
});

describe('single-lease over simulated runs', () => {
  beforeAll(async () => {
    await loadTestScripts();
  });

  it('lesson 9\'s "your turn to lose the primary", left alone, keeps a single lease (issue 16)', async () => {
    const loaded = loadScenario('lessons/09-replication-lost-lock.md#failover-your-turn');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const simulation = new Simulation(loaded.scenario, {}, await loadScriptEngine()).run();
    const events = simulation.sim.trace.toArray();
    // The situation the old checker misread: the replica still keeps A's key when B takes it.
    const bGrant = events.find((e) => e.kind === 'lease.granted' && e.data.owner === 'B')!;
    const replicaStillHasA =
      events.some(
        (e) => e.kind === 'lease.granted' && e.actor === 'replica' && e.data.owner === 'A' && e.at < bGrant.at,
      ) && !events.some((e) => e.kind === 'lease.ended' && e.actor === 'replica' && e.at <= bGrant.at);
    expect(replicaStillHasA).toBe(true);
    expect(simulation.verdicts().find((v) => v.invariant === 'single-lease')!.holds).toBe(true);
  });

  it('a split brain after a failover (the promoted replica grants B while the old primary still holds A) is still broken', () => {
    const r = runYaml(readFileSync('lessons/scenarios/failover-split-brain.yaml', 'utf8'));
    const v = r.verdict('single-lease');
    expect(v.holds).toBe(false);
    const promote = r.of('failover.promote')[0]!;
    expect(v.atMs).toBeGreaterThanOrEqual(promote.at);
    const owners = v.eventIds.map((id) => r.events[id]!).map((e) => (e.kind === 'lease.granted' ? e.data.owner : '?'));
    expect(owners.sort()).toEqual(['A', 'B']);
  });
});
