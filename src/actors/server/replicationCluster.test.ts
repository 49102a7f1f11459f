import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

const cluster = (key: string, extra = '') => `
id: cluster
title: cluster
redis:
  cluster: true
  nodes:
    - { id: a, slots: 0-5460 }
    - { id: b, slots: 5461-10922 }
    - { id: c, slots: 10923-16383 }
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 1s, key: '${key}', retry: none }
resource: { id: ledger, kind: db-row, fencing: true }
${extra}`;

describe('a simulated cluster', () => {
  it("sends each lock command to the node serving its key's slot", () => {
    const r = runYaml(cluster('{user1}.lock'));
    // {user1} hashes to slot 8106: node b.
    expect(
      new Set(
        r
          .of('redis.command')
          .filter((e) => e.data.from === 'A')
          .map((e) => e.actor),
      ),
    ).toEqual(new Set(['b']));
    expect(r.of('lock.acquired', 'A')).toHaveLength(1);
  });

  it('refuses a fenced lock whose fence counter hashes elsewhere: CROSSSLOT', () => {
    const r = runYaml(cluster('lock'));
    const reply = r.of('redis.command').find((e) => e.data.from === 'A')!.data.reply;
    expect(reply).toBe("(error) CROSSSLOT Keys in request don't hash to the same slot");
    expect(r.of('lock.acquired', 'A')).toEqual([]);
  });

  it('stops a lock client at the error instead of retrying it as if the lock were taken', () => {
    const r = runYaml(cluster('lock').replace(', retry: none', ''));
    expect(r.of('redis.command').filter((e) => e.data.from === 'A')).toHaveLength(1);
    expect(r.of('lock.busy', 'A')).toEqual([]);
    expect(r.of('lock.failed', 'A').map((e) => e.data)).toEqual([
      { key: 'lock', attempts: 1, error: "CROSSSLOT Keys in request don't hash to the same slot" },
    ]);
    expect(r.of('actor.state', 'A').at(-1)!.data.state).toBe('failed');
  });

  it('answers MOVED to a command typed on the wrong node', () => {
    const r = runYaml(cluster('{user1}.lock', 'script:\n  - { at: 5s, do: command, target: a, argv: [GET, foo] }'));
    expect(r.of('redis.command', 'a').at(-1)!.data.reply).toBe('(error) MOVED 12182 c:6379');
  });

  it('reports overlapping slot ranges and a primary without slots', () => {
    expect(() => runYaml(cluster('k').replace('5461-10922', '5000-10922'))).toThrow(
      /slots 5000-10922 overlap a's 0-5460/,
    );
    expect(() => runYaml(cluster('k').replace('{ id: c, slots: 10923-16383 }', '{ id: c }'))).toThrow(
      /cluster primary 'c' serves no slots/,
    );
  });

  // Both timings measured on redis-server 7.0.15 (clusterHealth.ts says how).
  const replies = (r: ReturnType<typeof runYaml>, node: string) =>
    r.of('redis.command', node).map((e) => `${e.at} ${String(e.data.reply)}`);
  const set = (at: string, node: string, key: string) =>
    `  - { at: ${at}, do: command, target: ${node}, argv: [SET, '${key}', v] }`;

  it('keeps a restarted master refusing key commands for its first 2 s: CLUSTERDOWN The cluster is down', () => {
    // foo is slot 12182, on c.
    const script = [
      'script:',
      '  - { at: 1000ms, do: crash, target: c }',
      '  - { at: 1500ms, do: restart, target: c }',
      set('1600ms', 'c', 'foo'),
      '  - { at: 1600ms, do: command, target: c, argv: [PING] }',
      set('3400ms', 'c', 'foo'),
      set('3600ms', 'c', 'foo'),
    ];
    const r = runYaml(cluster('{user1}.lock', script.join('\n')));
    expect(replies(r, 'c')).toEqual([
      '1600 (error) CLUSTERDOWN The cluster is down',
      '1600 PONG',
      '3400 (error) CLUSTERDOWN The cluster is down',
      '3600 OK',
    ]);
  });

  it('takes the whole cluster down once a master has been down for the node timeout and the failure reports', () => {
    // bar is slot 5061, on a; c crashes at 1 s, is marked failed at 17 s and is back at 20 s.
    const script = [
      'horizon: 60s',
      'script:',
      '  - { at: 1000ms, do: crash, target: c }',
      set('16900ms', 'a', 'bar'),
      set('17000ms', 'a', 'bar'),
      '  - { at: 20000ms, do: restart, target: c }',
      set('22100ms', 'c', 'foo'),
      set('46900ms', 'a', 'bar'),
      set('47000ms', 'a', 'bar'),
    ];
    const r = runYaml(cluster('{user1}.lock', script.join('\n')));
    expect(replies(r, 'a')).toEqual([
      '16900 OK',
      '17000 (error) CLUSTERDOWN The cluster is down',
      // Cleared twice the node timeout after it was marked failed, though it was back long before.
      '46900 (error) CLUSTERDOWN The cluster is down',
      '47000 OK',
    ]);
    // The restarted master itself is up after its own 2 s.
    expect(replies(r, 'c')).toEqual(['22100 OK']);
  });
});
