import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

/**
 * One node with the given persistence; the console writes k0, k1, ... every 100 ms from 100 ms
 * to 2.5 s, then the node goes down at 2550 ms (crash or power loss) and restarts at 5 s.
 */
function outage(persistence: string, down: 'crash' | 'power-loss') {
  const writes = Array.from(
    { length: 25 },
    (_, i) => `  - { at: ${100 + i * 100}ms, do: command, target: r1, argv: [SET, k${i}, v] }`,
  ).join('\n');
  const r = runYaml(`
id: outage
title: outage
redis: { nodes: [{ id: r1, persistence: ${persistence} }] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, startAt: 30s, work: 1s }]
resource: { id: espresso }
script:
${writes}
  - { at: 2550ms, do: ${down}, target: r1 }
  - { at: 5s, do: restart, target: r1 }
  - { at: 5100ms, do: command, target: r1, argv: [DBSIZE] }
`);
  const dbsize = r.of('redis.command', 'r1').find((e) => e.data.argv[0] === 'DBSIZE')!;
  return { r, keys: Number(/\d+/.exec(dbsize.data.reply)![0]), recover: r.of('redis.recover', 'r1')[0]! };
}

describe('persistence', () => {
  it('without persistence a restart forgets everything', () => {
    const { keys, recover } = outage('none', 'crash');
    expect(keys).toBe(0);
    expect(recover.data).toMatchObject({ persistence: 'none', commands: 0 });
  });

  it('a process crash loses nothing with appendfsync everysec: the page cache survives', () => {
    expect(outage('aof-everysec', 'crash').keys).toBe(25);
  });

  it('a power loss with appendfsync everysec loses the writes since the last fsync (under a second)', () => {
    const { keys, r } = outage('aof-everysec', 'power-loss');
    expect(r.of('process.power-loss', 'r1')).toHaveLength(1);
    // fsyncs happen once a second from the cron (at 1 s and 2 s here): writes after 2 s are lost.
    expect(keys).toBeGreaterThanOrEqual(19);
    expect(keys).toBeLessThanOrEqual(20);
  });

  it('a power loss with appendfsync always loses nothing', () => {
    expect(outage('aof-always', 'power-loss').keys).toBe(25);
  });

  it('a power loss with appendfsync no loses everything not yet flushed by the OS (~30 s)', () => {
    expect(outage('aof-no', 'power-loss').keys).toBe(0);
  });

  it('TTLs keep counting while the node is down', () => {
    const r = runYaml(`
id: ttl-down
title: ttl while down
redis: { nodes: [{ id: r1, persistence: aof-always }] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, startAt: 30s, work: 1s }]
resource: { id: espresso }
script:
  - { at: 100ms, do: command, target: r1, argv: [SET, short, v, PX, '5000'] }
  - { at: 100ms, do: command, target: r1, argv: [SET, long, v, PX, '20000'] }
  - { at: 1s, do: crash, target: r1 }
  - { at: 10s, do: restart, target: r1 }
  - { at: 10s, do: command, target: r1, argv: [PTTL, short] }
  - { at: 10s, do: command, target: r1, argv: [PTTL, long] }
`);
    const replies = r
      .of('redis.command', 'r1')
      .filter((e) => e.data.argv[0] === 'PTTL')
      .map((e) => e.data.reply);
    expect(replies).toEqual(['(integer) -2', '(integer) 10100']);
  });

  it('a clock jump while the node is down does not bring back the leases it lost (they end once, as lost)', () => {
    const r = runYaml(`
id: jump-down
title: jump while down
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, work: 20s }]
resource: { id: espresso }
script:
  - { at: 1s, do: crash, target: r1 }
  - { at: 2s, do: clock-jump, target: r1, by: -2s }
  - { at: 3s, do: restart, target: r1 }
`);
    expect(r.of('lease.granted').map((e) => e.at)).toEqual([1]);
    expect(r.of('lease.ended').map((e) => [e.at, e.data.reason])).toEqual([[1000, 'lost']]);
  });

  it('a lock survives a restart with an AOF: the lease comes back with the node', () => {
    const r = runYaml(`
id: lock-survives
title: lock survives
redis: { nodes: [{ id: r1, persistence: aof-everysec }] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, work: 5s }]
resource: { id: espresso }
script:
  - { at: 1s, do: crash, target: r1 }
  - { at: 2s, do: restart, target: r1 }
`);
    const grants = r.of('lease.granted', 'r1');
    expect(grants.map((e) => [e.at, e.data.owner])).toEqual([
      [grants[0]!.at, 'A'],
      [2000, 'A'],
    ]);
  });

  it('Redlock: a master restarting without persistence hands B a second majority; with an AOF it does not', () => {
    const forgets = runYaml(readFileSync('lessons/scenarios/redlock-restart.yaml', 'utf8'));
    expect(forgets.of('redis.recover', 'r3')[0]!.data.keys).toBe(0);
    expect(forgets.of('lock.acquired', 'B')).toHaveLength(1);
    expect(forgets.verdict('single-writer').holds).toBe(false);
    const remembers = runYaml(readFileSync('lessons/scenarios/redlock-restart-aof.yaml', 'utf8'));
    expect(remembers.of('redis.recover', 'r3')[0]!.data.keys).toBe(1);
    expect(remembers.of('lock.acquired', 'B')).toEqual([]);
    expect(remembers.verdict('single-writer').holds).toBe(true);
  });
});
