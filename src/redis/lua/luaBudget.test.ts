import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../reply';
import { loadLuaEngine, type LuaScriptEngine } from './index';
import { TestKeyspace } from './testKeyspace';

// Work done inside C library calls runs no VM instruction. These scripts each spent tens of
// seconds there before pattern matching moved into Lua and C-side copying was charged.
const SHA = 'b6d4c2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5';
const killedAt = (line: number): Reply => ({
  type: 'error',
  value: `ERR Script killed by user with SCRIPT KILL... script: ${SHA}, on @user_script:${line}.`,
});

let engine: LuaScriptEngine;
const keyspace = new TestKeyspace();
beforeAll(async () => {
  engine = await loadLuaEngine();
  // Let WebAssembly tier up before anything is timed.
  engine.run(keyspace.request("local n = 0 for i = 1, 3000000 do n = n + i end string.find(string.rep('a', 300), '.-.-b')", [], []));
});

/** Runs a script and the wall time it took (the test's, not the engine's: it reads no clock). */
function timed(body: string): { reply: Reply; ms: number } {
  const startMs = performance.now();
  const reply = engine.run(keyspace.request(body, [], []));
  return { reply, ms: performance.now() - startMs };
}

describe('C-side work counts against the script budget', () => {
  it('kills a catastrophically backtracking pattern within a second', () => {
    // On an idle machine each takes 0.3-0.6 s. A loaded machine slows every script alike, so
    // the bound also allows four times what an empty runaway loop takes to be killed right now.
    const loopMs = timed('while true do end').ms;
    const boundMs = Math.max(1000, 4 * loopMs);
    for (const body of [
      "return string.find(string.rep('a', 700), '.-.-.-b')",
      "return string.match(string.rep('a', 700), '(.-)(.-)(.-)b')",
      "return string.gsub(string.rep('a', 700), '.-.-.-b', 'x')",
      "for x in string.gmatch(string.rep('a', 700), '.*.*.*b') do end",
    ]) {
      const { reply, ms } = timed(body);
      expect(reply, body).toEqual(killedAt(1));
      expect(ms, body).toBeLessThan(boundMs);
    }
    expect(timed("return {string.find('hello', 'l+')}").reply).toEqual({
      type: 'array',
      value: [
        { type: 'integer', value: 3n },
        { type: 'integer', value: 4n },
      ],
    });
  });

  it('kills a loop of big string copies and plain searches, which run no instructions in C', () => {
    const copies = timed("local s = string.rep('a', 4000000) local n = 0\nwhile true do n = n + #(s .. 'b') end");
    expect(copies.reply).toEqual(killedAt(2));
    expect(copies.ms).toBeLessThan(2000);
    const searches = timed(
      "local s, p = string.rep('a', 1000000), string.rep('a', 2000) .. 'b'\nwhile true do string.find(s, p, 1, true) end",
    );
    expect(searches.reply).toEqual(killedAt(2));
    expect(searches.ms).toBeLessThan(2000);
  });

  it('kills loops over library calls that work element by element in C', () => {
    const bodies = [
      "local t = {} for i = 1, 200000 do t[i] = i end\nwhile true do table.sort(t) end",
      "local t = {} for i = 1, 200000 do t[i] = i end\nwhile true do table.insert(t, 1, 0) table.remove(t, 1) end",
      "local t = {} for i = 1, 200000 do t[i] = '' end\nwhile true do table.concat(t) end",
      "local t = {} for i = 1, 200000 do t[i] = i end\nwhile true do local a = unpack(t) end",
      "local s = string.rep('a', 200000)\nwhile true do local a = string.byte(s, 1, -1) end",
    ];
    for (const body of bodies) {
      const startMs = performance.now();
      const reply = engine.run(keyspace.request(body, ['list'], []));
      expect(reply, body).toEqual(killedAt(2));
      expect(performance.now() - startMs, body).toBeLessThan(5000);
    }
    // A big reply is turned into Lua values by host code: each element and byte is charged.
    const bigReply: Reply = { type: 'array', value: Array.from({ length: 20000 }, (_, i) => ({ type: 'bulk', value: `item-${i}` })) };
    const request = { ...keyspace.request("local n = 0\nwhile true do n = n + #redis.call('lrange', 'l', 0, -1) end"), call: () => bigReply };
    const startMs = performance.now();
    expect(engine.run(request)).toEqual(killedAt(2));
    expect(performance.now() - startMs).toBeLessThan(5000);
    // Repeating an empty string does no work at all, however many times.
    expect(engine.run(keyspace.request("return #string.rep('', 2^50)", [], []))).toEqual({ type: 'integer', value: 0n });
  });

  it('charges the same work the same way on every run (no clock involved)', () => {
    const body = "local s = string.rep('ab', 1000) local n = 0 for i = 1, 10 do n = n + #string.gsub(s, '%w', 'c') + #string.gsub(s, 'a', '%0%0') end return n";
    engine.run(keyspace.request(body, [], []));
    const first = engine.lastRun;
    engine.run(keyspace.request(body, [], []));
    expect(engine.lastRun).toEqual(first);
    expect(first.killed).toBe(false);
    console.log(`10 × gsub over 2,000 bytes: ${first.instructions} instructions`);
  });
});
