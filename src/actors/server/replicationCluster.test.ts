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
});
