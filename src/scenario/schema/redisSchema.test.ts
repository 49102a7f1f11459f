import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostic';
import { parseScenario } from '../text/parse';
import { worldSpec } from '../running/build';

const problems = (yaml: string) => {
  const r = parseScenario(yaml.trimStart(), { file: 'lessons/scenarios/x.yaml', line: 1 });
  return r.ok ? [] : r.diagnostics.map(formatDiagnostic);
};

/** `redis` is the lines under `redis:`; the client and resource follow. */
const withRedis = (redis: string, rest = '') => `
id: s
title: S
redis:
${redis}
clients: [{ id: A, recipe: lease-with-token, ttl: 10s }]
resource: { id: espresso }
${rest}`;

describe('redis scenario section', () => {
  it('reports an unknown replicaOf target at its line and column, with a did-you-mean hint', () => {
    expect(problems(withRedis('  nodes: [{ id: primary }, { id: r, replicaOf: primry }]'))).toEqual([
      "lessons/scenarios/x.yaml:4:48: unknown replicaOf target 'primry' (did you mean 'primary'?)",
    ]);
  });

  it('refuses chained replication, a replica without a primary, and a misspelt key', () => {
    const out = problems(
      withRedis(
        '  nodes:\n    - { id: p }\n    - { id: a, replicaOf: p }\n    - { id: b, replicaOf: a }\n    - { id: c, role: replica }\n    - { id: d, replicaof: p }',
      ),
    );
    expect(out).toEqual([
      expect.stringMatching(
        /x\.yaml:9:16: unknown key 'replicaof' in redis\.nodes\[4\] \(did you mean 'replicaOf'\?\)/,
      ),
    ]);
    const cross = problems(
      withRedis(
        '  nodes:\n    - { id: p }\n    - { id: a, replicaOf: p }\n    - { id: b, replicaOf: a }\n    - { id: c, role: replica }',
      ),
    );
    expect(cross).toEqual([
      expect.stringMatching(
        /x\.yaml:7:27: 'a' is itself a replica: chained replication is not simulated \(replicate from 'p' instead\)/,
      ),
      expect.stringMatching(
        /x\.yaml:8:22: replica 'c' does not say whom it replicates \(add replicaOf: <primary id>\)/,
      ),
    ]);
  });

  it('checks sentinels: a quorum larger than the sentinels, and nothing to promote', () => {
    expect(
      problems(withRedis('  nodes: [{ id: p }, { id: r, replicaOf: p }]\n  sentinels: { count: 3, quorum: 4 }'))[0],
    ).toMatch(/5:34: a quorum of 4 with only 3 sentinels can never be reached/);
    expect(problems(withRedis('  nodes: [{ id: p }]\n  sentinels: { count: 3 }'))[0]).toMatch(
      /5:14: Sentinel needs a primary with at least one replica/,
    );
  });

  it('checks failover and power-loss targets, and accepts sentinels as process targets', () => {
    const redis = '  nodes: [{ id: p }, { id: r, replicaOf: p }]\n  sentinels: { count: 3, quorum: 2 }';
    const out = problems(
      withRedis(
        redis,
        'script:\n  - { at: 1s, do: failover, target: r }\n  - { at: 2s, do: power-loss, target: q }\n  - { at: 3s, do: crash, target: s2 }\n  - { at: 4s, do: failover, target: mymaster }',
      ),
    );
    expect(out).toEqual([
      "lessons/scenarios/x.yaml:9:37: cannot fail over 'r' (fail over 'mymaster' or 'p')",
      "lessons/scenarios/x.yaml:10:39: unknown Redis node 'q' (did you mean 'p'?)",
    ]);
  });

  it('refuses a WAIT that could never be met', () => {
    expect(
      problems(withRedis('  nodes: [{ id: p }, { id: r, replicaOf: p }]\n  wait: { replicas: 2, timeout: 100ms }'))[0],
    ).toMatch(/5:21: WAIT 2 can never be met with 1 replica\(s\)/);
  });

  it('builds the topology: roles, persistence, sentinel defaults (s1..sN, majority quorum)', () => {
    const parsed = parseScenario(
      withRedis(
        '  nodes:\n    - { id: p, persistence: aof-everysec, minReplicasToWrite: 1, minReplicasMaxLag: 1500ms }\n    - { id: r, replicaOf: p, lag: 200ms }\n  sentinels: { count: 5, downAfter: 2s }',
      ).trimStart(),
      { file: 'x.yaml', line: 1 },
    );
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    const topology = worldSpec(parsed.scenario).topology!;
    expect(topology.nodes.p).toMatchObject({
      role: 'primary',
      persistence: 'everysec',
      minReplicasToWrite: 1,
      minReplicasMaxLagS: 2,
    });
    expect(topology.nodes.r).toMatchObject({
      role: 'replica',
      replicaOf: 'p',
      replicationLagMs: 200,
      persistence: 'none',
    });
    expect(topology.sentinels).toEqual({
      name: 'mymaster',
      ids: ['s1', 's2', 's3', 's4', 's5'],
      primary: 'p',
      settings: { quorum: 3, downAfterMs: 2000, failoverTimeoutMs: 180_000 },
    });
  });

  it('keeps a scenario without a redis section on one lone node r1', () => {
    const parsed = parseScenario(
      withRedis('  nodes: [{ id: r1 }]')
        .replace(/redis:\n.*\n/, '')
        .trimStart(),
      { file: 'x.yaml', line: 1 },
    );
    expect(parsed.ok && parsed.scenario.redis.nodes.map((n) => n.id)).toEqual(['r1']);
  });
});
