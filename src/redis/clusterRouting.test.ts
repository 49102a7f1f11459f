import { describe, expect, it } from 'vitest';
import { formatReply } from './cliFormat';
import { clusterRedirect, commandKeys } from './clusterRouting';
import { RedisServer } from './server';

/** A cluster node that serves slots 0-8191; 8192-16382 belong to 127.0.0.1:6394; 16383 to nobody. */
const node = () =>
  new RedisServer({
    clock: () => 1_700_000_000_000,
    random: () => 0.5,
    cluster: { ownerOf: (slot) => (slot < 8192 ? 'self' : slot < 16383 ? '127.0.0.1:6394' : null), ok: () => true },
  });

describe('cluster routing', () => {
  it("redirects a key in another node's slot with MOVED, like REDIS.md's example", () => {
    expect(formatReply(node().exec(['SET', 'foo', 'v']))).toBe('(error) MOVED 12182 127.0.0.1:6394');
  });

  it('runs keys it serves, and answers CROSSSLOT for keys in different slots', () => {
    const n = node();
    expect(formatReply(n.exec(['SET', 'bar', 'v']))).toBe('OK'); // slot 5061
    expect(formatReply(n.exec(['MSET', 'bar', '1', 'foo', '2']))).toBe(
      "(error) CROSSSLOT Keys in request don't hash to the same slot",
    );
    expect(formatReply(n.exec(['DEL', '{user1}.lock', '{user1}.fence']))).toBe('(integer) 0');
  });

  it("checks a script's declared keys: a lock and its fence counter need a hash tag", () => {
    expect(formatReply(node().exec(['EVAL', 'return 1', '2', 'lock', 'lock:fence']))).toBe(
      "(error) CROSSSLOT Keys in request don't hash to the same slot",
    );
    expect(
      clusterRedirect(['EVAL', 'return 1', '2', '{a}lock', '{a}lock:fence'], { ownerOf: () => 'self', ok: () => true }),
    ).toBeNull();
  });

  it('answers CLUSTERDOWN for a slot nobody serves, and CLUSTER KEYSLOT in cluster mode', () => {
    const n = node();
    const unserved = [...Array(100000).keys()]
      .map(String)
      .find(
        (k) => clusterRedirect(['GET', k], { ownerOf: (s) => (s === 16383 ? null : 'self'), ok: () => true }) !== null,
      )!;
    expect(formatReply(n.exec(['GET', unserved]))).toBe('(error) CLUSTERDOWN Hash slot not served');
    expect(formatReply(n.exec(['CLUSTER', 'KEYSLOT', 'foo']))).toBe('(integer) 12182');
  });

  it("checks as redis-server 7.0.15 does: the first key's slot, the other keys', then the cluster's state", () => {
    // One node of a cluster that is down, serving slots 0-5460 only: bar is slot 5061, foo 12182.
    const down = new RedisServer({
      clock: () => 1_700_000_000_000,
      random: () => 0.5,
      cluster: { ownerOf: (slot) => (slot <= 5460 ? 'self' : null), ok: () => false },
    });
    const reply = (...argv: string[]) => formatReply(down.exec(argv));
    expect(reply('MSET', 'foo', '1', 'bar', '2')).toBe('(error) CLUSTERDOWN Hash slot not served');
    expect(reply('MSET', 'bar', '1', 'foo', '2')).toBe("(error) CROSSSLOT Keys in request don't hash to the same slot");
    expect(reply('MSET', 'bar', '1', '{bar}x', '2')).toBe('(error) CLUSTERDOWN The cluster is down');
    expect(reply('GET', 'foo')).toBe('(error) CLUSTERDOWN Hash slot not served');
    // A command without keys is served whatever the cluster's state.
    expect(reply('PING')).toBe('PONG');
  });

  it("finds keys the way Redis's key specs do", () => {
    expect(commandKeys(['MSET', 'a', '1', 'b', '2'])).toEqual(['a', 'b']);
    expect(commandKeys(['EVAL', 's', '1', 'k', 'arg'])).toEqual(['k']);
    expect(commandKeys(['PING'])).toEqual([]);
    expect(commandKeys(['HSET', 'h', 'f', 'v'])).toEqual(['h']);
  });
});
