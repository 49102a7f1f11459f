import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';
import { AssertionError } from '../../sim/assert';
import { simTime } from '../../sim/time';
import type { Action } from '../action';

beforeAll(loadTestScripts);

/** A primary p with replicas, three sentinels (downAfter 2 s), and a client that keeps working until 15 s. */
const group = (opts: { replicas?: string; sentinels?: string; script?: string } = {}) => `
id: group
title: group
redis:
  nodes:
    - { id: p }
    ${opts.replicas ?? '- { id: r1, replicaOf: p }'}
  sentinels: ${opts.sentinels ?? '{ count: 3, quorum: 2, downAfter: 2s, failoverTimeout: 10s }'}
clients: [{ id: A, recipe: lease-with-token, ttl: 20s, work: 15s, startAt: 100ms }]
resource: { id: espresso }
script:
${opts.script ?? '  - { at: 1s, do: crash, target: p }'}
`;

describe('Sentinel', () => {
  it('walks monitoring → subjectively-down → objectively-down → electing → failing-over → monitoring on the leader', () => {
    const r = runYaml(group());
    const leader = r.of('sentinel.elected')[0]!.actor;
    const states = r.of('actor.state', leader).map((e) => e.data.state);
    expect(states).toEqual([
      'monitoring',
      'subjectively-down',
      'objectively-down',
      'electing',
      'failing-over',
      'monitoring',
    ]);
    expect(r.of('actor.state', leader)[0]!.at).toBe(0);
    // Everyone ends up agreeing on the new primary.
    expect(r.of('sentinel.switch').map((e) => e.data.to)).toEqual(['r1', 'r1', 'r1']);
  });

  it('marks the primary down only after down-after-milliseconds without an answer', () => {
    const r = runYaml(group({ sentinels: '{ count: 3, quorum: 2, downAfter: 5s, failoverTimeout: 10s }' }));
    const sdown = r.of('sentinel.sdown').filter((e) => e.data.node === 'p' && e.data.down);
    expect(sdown).toHaveLength(3);
    for (const e of sdown) {
      expect(e.at).toBeGreaterThan(1000 + 5000 - 1000);
      expect(e.at).toBeLessThanOrEqual(1000 + 5000 + 1000);
    }
  });

  it('elects one leader by majority, after a random delay of at most a second', () => {
    const r = runYaml(group());
    const elected = r.of('sentinel.elected');
    expect(elected).toHaveLength(1);
    expect(elected[0]!.data.votes).toBeGreaterThanOrEqual(2);
    const odown = r.of('sentinel.odown').find((e) => e.actor === elected[0]!.actor && e.data.down)!;
    const ownVote = r.of('sentinel.vote', elected[0]!.actor)[0]!;
    expect(ownVote.at - odown.at).toBeLessThanOrEqual(1000);
  });

  it('does not fail over without a quorum: one sentinel alone only sees its primary subjectively down', () => {
    const r = runYaml(
      group({
        script: `  - { at: 1s, do: partition, groups: [[s1], [p]] }`,
      }),
    );
    expect(r.of('sentinel.sdown', 's1').some((e) => e.data.node === 'p' && e.data.down)).toBe(true);
    expect(r.of('sentinel.odown')).toEqual([]);
    expect(r.of('failover.start')).toEqual([]);
  });

  it('does not fail over when the quorum cannot be reached (quorum 3, one sentinel down)', () => {
    const r = runYaml(
      group({
        sentinels: '{ count: 3, quorum: 3, downAfter: 2s, failoverTimeout: 10s }',
        script: `  - { at: 500ms, do: crash, target: s3 }\n  - { at: 1s, do: crash, target: p }`,
      }),
    );
    expect(r.of('sentinel.odown').filter((e) => e.data.down)).toEqual([]);
    expect(r.of('failover.promote')).toEqual([]);
  });

  it('chooses by priority, then by replication offset; priority 0 is never promoted', () => {
    const replicas = `- { id: zero, replicaOf: p, priority: 0 }
    - { id: behind, replicaOf: p, lag: 2s }
    - { id: ahead, replicaOf: p }`;
    const r = runYaml(group({ replicas, script: '  - { at: 1s, do: crash, target: p }' }));
    expect(r.of('failover.promote')[0]!.data.to).toBe('ahead');
    const preferred = `- { id: zero, replicaOf: p, priority: 0 }
    - { id: behind, replicaOf: p, lag: 2s, priority: 50 }
    - { id: ahead, replicaOf: p }`;
    expect(runYaml(group({ replicas: preferred })).of('failover.promote')[0]!.data.to).toBe('behind');
  });

  it("announces the new primary only when the replica's next INFO reports it one, not on the reply to REPLICAOF NO ONE", () => {
    const r = runYaml(group());
    const promote = r.of('failover.promote')[0]!;
    const leader = promote.actor;
    const promoted = r.of('redis.role', 'r1').find((e) => e.data.role === 'primary')!;
    const reply = r.of('net.deliver', leader).find((e) => e.data.label === 'OK' && e.data.from === 'r1')!;
    const report = r.of('net.deliver', leader).find((e) => e.data.from === 'r1' && e.data.label === 'role:master')!;
    expect(reply.at).toBeLessThan(report.at);
    expect(promote.at).toBe(report.at);
    // INFO goes to a replica every second while its primary is in trouble.
    expect(promote.at - promoted.at).toBeGreaterThan(0);
    expect(promote.at - promoted.at).toBeLessThanOrEqual(1010);
  });

  it('counts down-after from the oldest unanswered PING while the primary is alive but silent (paused)', () => {
    const r = runYaml(group({ script: '  - { at: 1500ms, do: pause, target: p }' }));
    for (const sdown of r.of('sentinel.sdown').filter((e) => e.data.node === 'p' && e.data.down)) {
      const pings = r.of('net.send', sdown.actor).filter((e) => e.data.to === 'p' && e.data.label === 'PING');
      const firstUnanswered = pings.find((e) => e.at > 1500)!;
      const lastAnswer = r
        .of('net.deliver', sdown.actor)
        .filter((e) => e.data.from === 'p' && e.data.label === 'PONG')
        .at(-1)!;
      expect(sdown.at - firstUnanswered.at).toBeGreaterThan(2000);
      expect(sdown.at - firstUnanswered.at).toBeLessThanOrEqual(2001);
      expect(sdown.at - lastAnswer.at).toBeGreaterThan(2900);
    }
  });

  it('turns a returning old primary into a replica at an INFO at least 8 s after it first reported itself a primary', () => {
    const r = runYaml(
      group({ script: '  - { at: 1s, do: crash, target: p }\n  - { at: 8s, do: restart, target: p }' }),
    );
    const restart = r.of('process.restart', 'p')[0]!;
    const told = r.of('net.send').filter((e) => e.data.to === 'p' && e.data.label === 'REPLICAOF r1');
    expect(told.length).toBeGreaterThan(0);
    for (const send of told) {
      const reports = r
        .of('net.deliver', send.actor)
        .filter((e) => e.data.from === 'p' && e.data.label === 'role:master' && e.at > restart.at);
      // It acts on an INFO answer, eight seconds or more after the first one since the restart.
      expect(reports.map((e) => e.at)).toContain(send.at);
      expect(send.at - reports[0]!.at).toBeGreaterThan(8000);
      // INFO comes every 10 s outside a failover, so that is the second answer, about 10 s on.
      expect(send.at - restart.at).toBeLessThanOrEqual(12_000);
    }
    expect(r.of('redis.role', 'p').at(-1)!.data).toMatchObject({ role: 'replica', of: 'r1' });
  });

  it('re-points the other replicas to the new primary', () => {
    const r = runYaml(group({ replicas: '- { id: r1, replicaOf: p }\n    - { id: r2, replicaOf: p, priority: 200 }' }));
    expect(r.of('failover.promote')[0]!.data.to).toBe('r1');
    const role = r.of('redis.role', 'r2').at(-1)!;
    expect(role.data).toMatchObject({ role: 'replica', of: 'r1' });
    expect(r.of('redis.sync', 'r2').at(-1)!.data.from).toBe('r1');
  });

  it("fails over at once on the learner's button (SENTINEL FAILOVER), with a healthy primary", () => {
    const r = runYaml(group({ script: '  - { at: 2s, do: failover, target: mymaster }' }));
    const start = r.of('failover.start')[0]!;
    expect(start.data.manual).toBe(true);
    expect(start.at).toBe(2000);
    expect(r.of('sentinel.sdown')).toEqual([]);
    expect(r.of('failover.promote')[0]!.data).toMatchObject({ from: 'p', to: 'r1' });
    // The old primary is alive, so it is re-pointed and resyncs from the new one.
    expect(r.of('redis.role', 'p').at(-1)!.data).toMatchObject({ role: 'replica', of: 'r1' });
  });

  it('sends Sentinel-aware clients to the new primary', () => {
    const r = runYaml(group({ script: '  - { at: 2s, do: failover, target: p }' }));
    const release = r
      .of('redis.command')
      .filter((e) => e.data.from === 'A')
      .at(-1)!;
    expect(release.actor).toBe('r1');
  });

  it('without Sentinel, a failover step promotes the most advanced replica by hand', () => {
    const r = runYaml(`
id: by-hand
title: by hand
redis: { nodes: [{ id: p }, { id: r1, replicaOf: p }] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, work: 1s }]
resource: { id: espresso }
script:
  - { at: 2s, do: failover, target: p }
`);
    expect(r.of('redis.role', 'r1').at(-1)!.data).toMatchObject({ role: 'primary' });
    expect(r.of('redis.role', 'p').at(-1)!.data).toMatchObject({ role: 'replica', of: 'r1' });
  });

  it('a failover that cannot start says why in the trace instead of passing in silence', () => {
    const byHand = runYaml(`
id: no-replica
title: no replica
redis: { nodes: [{ id: p }, { id: r1, replicaOf: p }] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, work: 1s }]
resource: { id: espresso }
script:
  - { at: 1s, do: crash, target: r1 }
  - { at: 2s, do: failover, target: p }
`);
    expect(byHand.of('failover.abort').map((e) => [e.at, e.data.reason])).toEqual([
      [2000, 'no replica of p is up with a priority above 0 to promote by hand'],
    ]);
    const sentinelsDown = runYaml(
      group({
        script: [
          '  - { at: 1s, do: crash, target: s1 }',
          '  - { at: 1s, do: crash, target: s2 }',
          '  - { at: 1s, do: crash, target: s3 }',
          '  - { at: 2s, do: failover, target: mymaster }',
        ].join('\n'),
      }),
    );
    expect(sentinelsDown.of('failover.abort').map((e) => e.data)).toEqual([
      { group: 'mymaster', reason: 'no Sentinel could start it: each is down, paused or already failing over' },
    ]);
  });

  it('an action on a target the world does not have stops the run at once (readers check targets first)', () => {
    const act = (action: Action) => () => runYaml(group({ script: '  - { at: 1s, do: heal }' }), { actions: [action] });
    expect(act({ at: simTime(1000), do: 'pause', target: 'nobody' })).toThrow(
      new AssertionError("pause: no process 'nobody'"),
    );
    expect(act({ at: simTime(1000), do: 'command', target: 'nobody', argv: ['PING'] })).toThrow(
      new AssertionError("command: no Redis node 'nobody'"),
    );
    expect(act({ at: simTime(1000), do: 'power-loss', target: 'nobody' })).toThrow(
      new AssertionError("power-loss: no Redis node 'nobody'"),
    );
  });

  it('split brain: a client cut off with the old primary keeps using it while Sentinel promotes the replica; heal demotes it', () => {
    const r = runYaml(readFileSync('lessons/scenarios/failover-split-brain.yaml', 'utf8'));
    const promote = r.of('failover.promote')[0]!;
    // A renews on the old primary after the promotion; B holds the lock on the new one meanwhile.
    expect(r.of('lock.renewed', 'A').some((e) => e.at > promote.at)).toBe(true);
    expect(
      r.of('redis.command', 'primary').filter((e) => e.data.from === 'A' && e.at > promote.at).length,
    ).toBeGreaterThan(0);
    expect(r.of('lease.granted', 'replica').find((e) => e.data.owner === 'B')!.at).toBeGreaterThan(promote.at);
    expect(r.verdict('single-lease').holds).toBe(false);
    const heal = r.of('net.heal')[0]!;
    const demoted = r.of('redis.role', 'primary').at(-1)!;
    expect(demoted.data).toMatchObject({ role: 'replica', of: 'replica' });
    // Nobody told the old primary during the failover: it is a stray once it answers, for 8 s at least.
    expect(demoted.at - heal.at).toBeGreaterThan(8000);
  });

  it('detects the silence right after down-after-milliseconds and asks the others at once', () => {
    const r = runYaml(
      group({
        sentinels: '{ count: 3, quorum: 2, downAfter: 2500ms, failoverTimeout: 10s }',
        script: '  - { at: 2500ms, do: crash, target: p }',
      }),
    );
    const sdown = r.of('sentinel.sdown').filter((e) => e.data.node === 'p')[0]!;
    const pongs = r.of('net.deliver', sdown.actor).filter((e) => e.data.label === 'PONG' && e.data.from === 'p');
    const lastPong = Math.max(...pongs.map((e) => e.at));
    expect(sdown.at - lastPong).toBeGreaterThan(2500);
    expect(sdown.at - lastPong).toBeLessThanOrEqual(2510);
    expect(r.of('sentinel.odown')[0]!.at - sdown.at).toBeLessThan(20);
  });

  it('gives an election up exactly when its timeout passes, then stays objectively down', () => {
    // s1 is cut off from the other sentinels: with quorum 1 it judges the primary down alone,
    // but the two votes it needs can never reach it.
    const r = runYaml(
      group({
        sentinels: '{ count: 3, quorum: 1, downAfter: 2s, failoverTimeout: 6s }',
        script: '  - { at: 0ms, do: partition, groups: [[s1], [s2, s3]] }\n  - { at: 1s, do: crash, target: p }',
      }),
    );
    const states = r.of('actor.state', 's1');
    const electing = states.find((e) => e.data.state === 'electing')!;
    const after = states[states.indexOf(electing) + 1]!;
    expect(after.data.state).toBe('objectively-down');
    expect(after.at - electing.at).toBe(6000);
    expect(r.of('sentinel.elected', 's1')).toHaveLength(0);
  });

  it('is deterministic: the same seed gives the same trace', () => {
    expect(runYaml(group()).simulation.sim.trace.hash()).toBe(runYaml(group()).simulation.sim.trace.hash());
  });
});
