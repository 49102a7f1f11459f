import { describe, expect, test } from 'vitest';
import { RedisServer, NO_SCRIPT_ENGINE } from './server';
import { error, integer, nil, ok, bulk, type Reply } from './reply';
import type { ScriptEngine } from './scriptEngine';

function node(start = 1_000_000) {
  let now = start;
  const effects: string[][][] = [];
  const server = new RedisServer({
    clock: () => now,
    random: () => 0.5,
    sleep: (ms) => {
      now += ms;
    },
    onPropagate: (batch) => effects.push(batch),
  });
  return { server, effects, advance: (ms: number) => (now += ms), now: () => now };
}

describe('RedisServer', () => {
  test('SET NX PX acquires once, refuses while held, and frees after the TTL', () => {
    const { server, advance } = node();
    expect(server.exec(['SET', 'lock', 'c1', 'NX', 'PX', '100'])).toEqual(ok);
    expect(server.exec(['set', 'lock', 'c2', 'nx', 'px', '100'])).toEqual(nil);
    advance(100);
    expect(server.exec(['GET', 'lock'])).toEqual(bulk('c1'));
    advance(1);
    expect(server.exec(['SET', 'lock', 'c2', 'NX', 'PX', '100'])).toEqual(ok);
    expect(server.exec(['GET', 'lock'])).toEqual(bulk('c2'));
  });

  test('DEL counts only keys that existed', () => {
    const { server } = node();
    server.exec(['SET', 'a', '1']);
    server.exec(['SET', 'b', '2']);
    expect(server.exec(['DEL', 'a', 'b', 'c', 'a'])).toEqual(integer(2));
  });

  test('INCR is 64-bit and reports overflow exactly', () => {
    const { server } = node();
    expect(server.exec(['INCR', 'n'])).toEqual(integer(1));
    server.exec(['SET', 'n', '9223372036854775806']);
    expect(server.exec(['INCR', 'n'])).toEqual(integer(9223372036854775807n));
    expect(server.exec(['INCR', 'n'])).toEqual(error('ERR increment or decrement would overflow'));
    server.exec(['SET', 'n', '01']);
    expect(server.exec(['INCR', 'n'])).toEqual(error('ERR value is not an integer or out of range'));
  });

  test('relative TTLs are propagated as absolute PXAT and lazy expiry as DEL', () => {
    const { server, effects, advance } = node(5000);
    server.exec(['SET', 'k', 'v', 'EX', '1']);
    expect(effects.at(-1)).toEqual([['SET', 'k', 'v', 'PXAT', '6000']]);
    advance(1001);
    expect(server.exec(['GET', 'k'])).toEqual(nil);
    expect(effects.at(-1)).toEqual([['DEL', 'k']]);
  });

  test('peek and entries have no side effects and hide expired keys', () => {
    const { server, advance } = node();
    server.exec(['SET', 'b', 'v', 'PX', '10']);
    server.exec(['HSET', 'a', 'f', '1']);
    expect(server.entries().map((e) => e.key)).toEqual(['a', 'b']);
    advance(11);
    expect(server.peek('b')).toBeUndefined();
    expect(server.entries().map((e) => [e.key, e.type, e.value])).toEqual([['a', 'hash', '{f: 1}']]);
    expect(server.storedKeyCount).toBe(2);
    // Until it is deleted, the expired key is still stored, and listed as stored.
    expect(server.entries(true).map((e) => e.key)).toEqual(['a', 'b']);
  });

  test('active expiry deletes sampled stale keys', () => {
    const { server, advance } = node();
    for (let i = 0; i < 30; i++) server.exec(['SET', `k${i}`, 'v', 'PX', '10']);
    server.exec(['SET', 'keep', 'v']);
    advance(11);
    const deleted = server.activeExpireCycle();
    expect(deleted.length).toBe(30);
    expect(server.storedKeyCount).toBe(1);
  });

  test('EVAL without an engine answers a clear error; with one, time is frozen and WAIT is refused', () => {
    const { server } = node();
    expect(server.exec(['EVAL', 'return 1', '0'])).toEqual(error(NO_SCRIPT_ENGINE));
    let seen: Reply[] = [];
    let clock = 0;
    const engine: ScriptEngine = {
      run: (request) => {
        seen = [request.call(['SET', 'k', 'v', 'PX', '1']), request.call(['WAIT', '0', '0'])];
        clock += 5;
        return request.call(['EXISTS', 'k']);
      },
    };
    const scripted = new RedisServer({ clock: () => clock, random: () => 0, scripts: engine });
    expect(scripted.exec(['EVAL', 'body', '0'])).toEqual(integer(1));
    expect(seen).toEqual([ok, error('ERR This Redis command is not allowed from script')]);
    expect(scripted.exec(['EXISTS', 'k'])).toEqual(integer(0));
    expect(scripted.exec(['EVALSHA', 'a'.repeat(40), '0'])).toEqual(
      error('NOSCRIPT No matching script. Please use EVAL.'),
    );
  });
});
