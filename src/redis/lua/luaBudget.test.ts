import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../reply';
import { loadLuaEngine, type LuaScriptEngine } from './index';
import { defaultLuaLimits } from './luaLimits';
import { TestKeyspace } from '../../testing/testKeyspace';

// Work done inside C library calls runs no VM instruction. These scripts each spend tens of
// seconds there unless that work is charged to the budget (scripts/lua51/budget.patch).
const SHA = 'b6d4c2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5';
const killedAt = (line: number): Reply => ({
  type: 'error',
  value: `ERR Script killed by user with SCRIPT KILL... script: ${SHA}, on @user_script:${line}.`,
});

let engine: LuaScriptEngine;
/**
 * An engine with a tenth of the site's budget, for scripts whose charged work is slow to do: a
 * sort's comparisons, a big reply turned into Lua values. What these tests show (C work is
 * charged, so the kill comes at the budget) does not depend on the budget's size, and at the
 * site's 20 million one sort loop took 9 s on a loaded 2-core runner and timed a test out.
 */
let tenth: LuaScriptEngine;
const keyspace = new TestKeyspace();
beforeAll(async () => {
  engine = await loadLuaEngine();
  tenth = await loadLuaEngine({ instructionBudget: defaultLuaLimits.instructionBudget / 10 });
});

/** The instruction budget: what each script below may spend, in VM instructions plus charged C work. */
const budget = () => engine.limits.instructionBudget;

/**
 * Every test here asserts work, never wall-clock time: the engine reads no clock, so a script is
 * cut after the same work on every machine, however busy. How long the budget takes is the
 * machine's business (a few hundred milliseconds on an idle desktop, ten times that on a loaded
 * 2-core CI runner); the tests leave their own duration room.
 */
describe('C-side work counts against the script budget', () => {
  it('kills a catastrophically backtracking pattern at the budget', { timeout: 60_000 }, () => {
    // Every step of the C matcher is charged (scripts/lua51/budget.patch), so the kill comes at the
    // budget; uncharged, one call would run for minutes.
    const hookInterval = 10_000;
    for (const body of [
      "return string.find(string.rep('a', 700), '.-.-.-b')",
      "return string.match(string.rep('a', 700), '(.-)(.-)(.-)b')",
      "return string.gsub(string.rep('a', 700), '.-.-.-b', 'x')",
      "for x in string.gmatch(string.rep('a', 700), '.*.*.*b') do end",
    ]) {
      expect(engine.run(keyspace.request(body, [], [])), body).toEqual(killedAt(1));
      expect(engine.lastRun.killed, body).toBe(true);
      expect(engine.lastRun.instructions, body).toBeLessThanOrEqual(budget() + hookInterval);
    }
    expect(engine.run(keyspace.request("return {string.find('hello', 'l+')}", [], []))).toEqual({
      type: 'array',
      value: [
        { type: 'integer', value: 3n },
        { type: 'integer', value: 4n },
      ],
    });
  });

  // Each script below is killed once the work charged for its C calls reaches the budget, while it
  // has run only a fraction of the budget as VM instructions. Uncharged, each would loop until 20
  // million instructions: hundreds of thousands of 4 MB copies, searches, sorts or conversions.
  it(
    'kills a loop of big string copies and plain searches, which run no instructions in C',
    { timeout: 60_000 },
    () => {
      for (const body of [
        "local s = string.rep('a', 4000000) local n = 0\nwhile true do n = n + #(s .. 'b') end",
        "local s, p = string.rep('a', 1000000), string.rep('a', 2000) .. 'b'\nwhile true do string.find(s, p, 1, true) end",
      ]) {
        expect(engine.run(keyspace.request(body, [], [])), body).toEqual(killedAt(2));
        expect(engine.lastRun.killed, body).toBe(true);
        expect(engine.lastRun.instructions, body).toBeLessThan(budget() / 10);
      }
    },
  );

  it('kills loops over library calls that work element by element in C', { timeout: 60_000 }, () => {
    const engine = tenth;
    const budget = () => engine.limits.instructionBudget;
    const bodies = [
      'local t = {} for i = 1, 20000 do t[i] = i end\nwhile true do table.sort(t) end',
      'local t = {} for i = 1, 20000 do t[i] = i end\nwhile true do table.insert(t, 1, 0) table.remove(t, 1) end',
      "local t = {} for i = 1, 20000 do t[i] = '' end\nwhile true do table.concat(t) end",
      // Lua 5.1 returns at most 8,000 values from a C function (LUAI_MAXCSTACK): 'too many results' beyond.
      'local t = {} for i = 1, 7000 do t[i] = i end\nwhile true do local a = unpack(t) end',
      "local s = string.rep('a', 7000)\nwhile true do local a = string.byte(s, 1, -1) end",
    ];
    for (const body of bodies) {
      expect(engine.run(keyspace.request(body, ['list'], [])), body).toEqual(killedAt(2));
      expect(engine.lastRun.killed, body).toBe(true);
      expect(engine.lastRun.instructions, body).toBeLessThan(budget() / 10);
    }
  });

  it('charges turning a big reply into Lua values, so a loop over it stops at the budget', { timeout: 60_000 }, () => {
    // Host code turns each reply into Lua values: each element and byte is charged, so the script
    // gets no more replies than the budget pays for (64 bytes, 4 instructions, each).
    const engine = tenth;
    const budget = () => engine.limits.instructionBudget;
    const elements = 20000;
    const bigReply: Reply = {
      type: 'array',
      value: Array.from({ length: elements }, (_, i) => ({ type: 'bulk', value: `item-${i}` })),
    };
    let calls = 0;
    const request = {
      ...keyspace.request("local n = 0\nwhile true do n = n + #redis.call('lrange', 'l', 0, -1) end"),
      call: () => {
        calls++;
        return bigReply;
      },
    };
    expect(engine.run(request)).toEqual(killedAt(2));
    expect(engine.lastRun.instructions).toBeLessThan(budget() / 10);
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThanOrEqual(Math.ceil(budget() / ((elements * 64) / 16)));
    // Repeating an empty string does no work at all, however many times.
    expect(engine.run(keyspace.request("return #string.rep('', 2^50)", [], []))).toEqual({
      type: 'integer',
      value: 0n,
    });
  });

  it('charges the same work the same way on every run (no clock involved)', () => {
    const body =
      "local s = string.rep('ab', 1000) local n = 0 for i = 1, 10 do n = n + #string.gsub(s, '%w', 'c') + #string.gsub(s, 'a', '%0%0') end return n";
    engine.run(keyspace.request(body, [], []));
    const first = engine.lastRun;
    engine.run(keyspace.request(body, [], []));
    expect(engine.lastRun).toEqual(first);
    expect(first.killed).toBe(false);
    console.log(`10 × gsub over 2,000 bytes: ${first.instructions} instructions`);
  });
});
