import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

const scenario = (name: string) => readFileSync(`lessons/scenarios/${name}.yaml`, 'utf8');

/** A primary with one replica and a console-driven client that does nothing on its own. */
const pair = (extra = '', nodes = '{ id: p }, { id: r, replicaOf: p }') => `
id: pair
title: pair
redis: { nodes: [${nodes}] }
clients: [{ id: A, recipe: lease-with-token, ttl: 10s, startAt: 20s, work: 1s }]
resource: { id: espresso }
${extra}`;

describe('the acknowledged-then-lost lock', () => {
  it("loses A's lock in the failover: B gets the same lock from the promoted replica and both write", () => {
    const r = runYaml(scenario('failover-lost-lock'));
    const acquiredA = r.of('lock.acquired', 'A')[0]!;
    const promote = r.of('failover.promote')[0]!;
    const grantB = r.of('lease.granted', 'replica').find((e) => e.data.owner === 'B')!;
    // The primary said OK to A, and the replica never applied A's SET.
    expect(r.of('redis.command', 'primary').find((e) => e.data.from === 'A')!.data.reply).toBe('OK');
    expect(r.of('redis.replicate', 'replica')).toEqual([]);
    expect(promote.data).toMatchObject({ from: 'primary', to: 'replica' });
    expect(acquiredA.at).toBeLessThan(promote.at);
    expect(grantB.at).toBeGreaterThan(promote.at);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('WAIT 1 100 narrows the window: the client refuses a lock no replica acknowledged', () => {
    const r = runYaml(scenario('failover-wait'));
    const firstWait = r.of('redis.command', 'primary').find((e) => e.data.argv[0] === 'WAIT')!;
    const waitBlocked = r.of('redis.wait', 'primary')[0]!;
    // WAIT blocks in virtual time: the reply comes at the timeout, not at once.
    expect(firstWait.at - waitBlocked.at).toBe(100);
    expect(firstWait.data.reply).toBe('(integer) 0');
    expect(r.of('lock.acquired', 'A')[0]!.at).toBeGreaterThan(r.of('failover.promote')[0]!.at);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it("WAIT answers 0: A hears Redis's own replies (the write's, then the integer), and the refusal is A's client's", () => {
    const r = runYaml(scenario('failover-wait'));
    const firstWait = r.of('redis.command', 'primary').find((e) => e.data.argv[0] === 'WAIT')!;
    // What travels back to A is what Redis sent: SET's OK and WAIT's integer, no error Redis never sends.
    const heard = r.of('net.deliver', 'A').filter((e) => e.data.from === 'primary' && e.at >= firstWait.at)[0]!;
    expect(heard.data.label).toBe('OK, WAIT (integer) 0');
    expect(
      r.of('net.deliver', 'A').some((e) => e.data.label.includes('ERR') || e.data.label.includes('NOREPLICAS')),
    ).toBe(false);
    // The refusal is recorded on A's own lane, with the count it is based on.
    const refusal = r.of('lock.busy', 'A')[0]!;
    expect(refusal.at).toBe(heard.at);
    expect(refusal.data.refusal).toBe('WAIT confirmed 0 of 1 replicas');
  });

  it('releaseRefused: the client deletes each key it refused, so the lock is taken in seconds, not after the TTL', () => {
    const released = runYaml(scenario('wait-refused-released'));
    const refusals = released.of('lock.busy', 'A').filter((e) => e.data.refusal !== undefined);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      const next = released.events.find((e) => e.id > refusal.id && e.actor === 'A' && e.kind.startsWith('lock.'))!;
      expect([next.kind, next.kind === 'lock.released' && next.data.deleted]).toEqual(['lock.released', true]);
    }
    expect(released.of('lock.acquired', 'A')[0]!.at).toBeLessThan(5000);
    // Without it, the refused key is left behind: nobody takes the lock until it expires.
    const stranded = runYaml(scenario('wait-refused-stranded'));
    expect(stranded.of('lock.released', 'A').filter((e) => e.at < 16_000)).toEqual([]);
    expect(stranded.of('lock.acquired')[0]!.at).toBeGreaterThan(16_000);
  });

  it('WAIT does not prevent the loss: a WAIT-confirmed lock is lost when a behind replica is promoted', () => {
    const r = runYaml(scenario('failover-wait-still-lost'));
    const wait = r.of('redis.command', 'primary').find((e) => e.data.argv[0] === 'WAIT' && e.data.from === 'A')!;
    expect(wait.data.reply).toBe('(integer) 1');
    expect(r.of('lock.acquired', 'A')).toHaveLength(1);
    expect(r.of('failover.promote')[0]!.data.to).toBe('big');
    // The replica that had the lock follows the new primary and throws it away.
    expect(r.of('redis.sync', 'fast').at(-1)!.data).toMatchObject({ from: 'big', discarded: 1 });
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('min-replicas-to-write with a healthy, lagging replica still acknowledges and loses the lock', () => {
    expect(runYaml(scenario('failover-min-replicas')).verdict('single-writer').holds).toBe(false);
  });

  it('fencing refuses the stale writer after the failover', () => {
    const r = runYaml(scenario('failover-fencing'));
    const refused = r.of('resource.write').filter((e) => !e.data.accepted);
    expect(refused.map((e) => e.data.from)).toEqual(['A']);
    expect(r.verdict('single-writer').holds).toBe(true);
  });
});

describe('the old primary rejoins', () => {
  it('comes back from its AOF with the lost lock, is re-pointed by Sentinel and flushes it', () => {
    const r = runYaml(scenario('failover-aof-rejoin'));
    const recover = r.of('redis.recover', 'primary')[0]!;
    expect(recover.data).toMatchObject({ persistence: 'always', keys: 1 });
    const demoted = r
      .of('redis.role', 'primary')
      .find((e) => e.data.role === 'replica' && e.data.reason !== 'configured')!;
    expect(demoted.data.of).toBe('replica');
    const sync = r.of('redis.sync', 'primary')[0]!;
    expect(sync.data.discarded).toBe(1);
    expect(sync.at).toBeGreaterThan(demoted.at);
    const ended = r.of('lease.ended', 'primary').at(-1)!;
    expect(ended.data.owner).toBe('A');
    expect(ended.at).toBe(sync.at);
    expect(r.simulation.world.nodes.find((n) => n.id === 'primary')!.server.peek('lock')).toBeUndefined();
  });
});

describe('replication', () => {
  it('applies the stream in order on the replica even when the network reorders messages', () => {
    const cmds = Array.from(
      { length: 30 },
      (_, i) => `  - { at: ${100 + i}ms, do: command, target: p, argv: [SET, k, v${i}] }`,
    ).join('\n');
    const r = runYaml(pair(`network: { reorder: 0.5, reorderDelay: 20ms }\nscript:\n${cmds}`));
    const offsets = r
      .of('redis.replicate', 'r')
      .filter((e) => e.data.argv[0]![1] === 'k')
      .map((e) => e.data.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets).toHaveLength(30);
    expect(r.simulation.world.nodes.find((n) => n.id === 'r')!.server.peek('k')?.value).toBe('v29');
  });

  it('answers READONLY to a client write on a replica', () => {
    const r = runYaml(pair(`script:\n  - { at: 100ms, do: command, target: r, argv: [SET, k, v] }`));
    expect(r.of('redis.command', 'r')[0]!.data.reply).toBe(
      "(error) READONLY You can't write against a read only replica.",
    );
  });

  it("never expires keys on the replica: they read as missing but stay stored until the primary's DEL", () => {
    const r = runYaml(
      // The primary's active expiry would delete k (and send the DEL) within 100 ms of its
      // deadline; with it off, as in Redis's own replica-expiry tests, only the GET at 600 ms does.
      pair(`script:
  - { at: 50ms, do: command, target: p, argv: [DEBUG, SET-ACTIVE-EXPIRE, '0'] }
  - { at: 100ms, do: command, target: p, argv: [SET, k, v, PX, '100'] }
  - { at: 500ms, do: command, target: r, argv: [GET, k] }
  - { at: 500ms, do: command, target: r, argv: [DBSIZE] }
  - { at: 600ms, do: command, target: p, argv: [GET, k] }
  - { at: 700ms, do: command, target: r, argv: [DBSIZE] }`),
    );
    expect(r.of('redis.command', 'r').map((e) => e.data.reply)).toEqual(['(nil)', '(integer) 1', '(integer) 0']);
    // The primary's lazy expiry became a DEL in the stream; the relative TTL travelled as PXAT.
    const stream = r.of('redis.replicate', 'r').filter((e) => e.data.argv[0]![1] === 'k');
    expect(stream.map((e) => e.data.argv[0]![0])).toEqual(['SET', 'DEL']);
    expect(stream[0]!.data.argv[0]).toContain('PXAT');
  });

  it('WAIT returns as soon as the replica acknowledges, well before its timeout', () => {
    const r = runYaml(
      pair(`script:
  - { at: 100ms, do: command, target: p, argv: [SET, k, v] }
  - { at: 100ms, do: command, target: p, argv: [WAIT, '1', '5000'] }`),
    );
    const wait = r.of('redis.command', 'p').find((e) => e.data.argv[0] === 'WAIT')!;
    expect(wait.data.reply).toBe('(integer) 1');
    expect(wait.at - 100).toBeLessThan(20);
  });

  it('min-replicas-to-write: NOREPLICAS a few seconds after the replica stops acknowledging, like Redis', () => {
    const sets = Array.from(
      { length: 8 },
      (_, i) => `  - { at: ${1000 + i * 1000}ms, do: command, target: p, argv: [SET, k, v${i}] }`,
    ).join('\n');
    const r = runYaml(
      pair(
        `script:
  - { at: 900ms, do: pause, target: r }
${sets}`,
        '{ id: p, minReplicasToWrite: 1, minReplicasMaxLag: 2s }, { id: r, replicaOf: p }',
      ),
    );
    const replies = r.of('redis.command', 'p').map((e) => [e.at, e.data.reply] as const);
    const firstRefusal = replies.find(([, reply]) => reply.startsWith('(error) NOREPLICAS'))!;
    expect(firstRefusal[1]).toBe('(error) NOREPLICAS Not enough good replicas to write.');
    // REDIS.md: with max-lag 2 s and the replica stopped, SET still answered OK, and only after ~4 s NOREPLICAS.
    expect(replies[1]![1]).toBe('OK');
    expect(firstRefusal[0] - 900).toBeGreaterThanOrEqual(3000);
    expect(firstRefusal[0] - 900).toBeLessThanOrEqual(5000);
  });

  it('leaves runs without replication exactly as before: no crons, no role events', () => {
    const r = runYaml(pair('', '{ id: p }'));
    expect(r.of('redis.role')).toEqual([]);
    expect(r.events.filter((e) => e.kind === 'net.send' && e.data.label.startsWith('REPLCONF'))).toEqual([]);
  });
});
