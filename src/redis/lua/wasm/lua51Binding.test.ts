import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lua51Vm, type Lua51Call } from './lua51Binding';

const wasmPath = new URL('./redisLua51.wasm', import.meta.url);
const wasmBytes = readFileSync(wasmPath);
const sha1 = (body: string) => createHash('sha1').update(body, 'latin1').digest('hex');
const noServer: Lua51Call = () => '-ERR no server in this test\r\n';

const vmWith = async (instructionBudget: number, memoryLimitBytes = 64 << 20) =>
  Lua51Vm.create({ module: await WebAssembly.compile(wasmBytes), instructionBudget, memoryLimitBytes });

/** The RESP2 reply, or the error text as the glue left it (err, or Lua's message). */
function evalOn(vm: Lua51Vm, body: string, keys: string[] = [], args: string[] = [], call = noServer): string {
  const id = sha1(body);
  const compileError = vm.compile(id, body);
  if (compileError !== null) return compileError;
  const outcome = vm.eval(id, keys, args, call);
  return outcome.ok ? outcome.reply : `-${outcome.fields?.err ?? outcome.message}\r\n`;
}

describe('the committed redisLua51.wasm', () => {
  it('is the module scripts/lua51/build.sh reproduces (its recorded SHA-256)', () => {
    const recorded = readFileSync(new URL('./redisLua51.wasm.sha256', import.meta.url), 'utf8').trim();
    expect(createHash('sha256').update(wasmBytes).digest('hex')).toBe(recorded);
  });
});

// Expected replies are what redis-server 7.0.15 sent for the same EVALs.
describe("Redis 7.0.15's Lua 5.1 in WebAssembly", () => {
  let vm: Lua51Vm;
  beforeAll(async () => {
    vm = await vmWith(20_000_000);
  });

  it('answers as Lua 5.1 does where Lua 5.4 differs: whole floats, float indices, 1%0', () => {
    expect(evalOn(vm, "return {'n=' .. 10/2, string.sub('hello', 1.5, 3.7), tostring(1%0)}")).toBe(
      '*3\r\n$3\r\nn=5\r\n$3\r\nhel\r\n$4\r\n-nan\r\n',
    );
  });

  it("packs Redis's cyclic cmsgpack table byte for byte (5.1's pairs order)", () => {
    const body =
      "local a = {x=nil,y=5} local b = {x=a} a['x'] = b local e = cmsgpack.pack(a) local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h";
    const hex =
      '82a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a178c0';
    expect(evalOn(vm, body)).toBe(`$${hex.length}\r\n${hex}\r\n`);
  });

  it('hands redis.call its byte-string arguments and the reply back to the script', () => {
    const seen: string[][] = [];
    const reply = evalOn(vm, 'return redis.call("SET", KEYS[1], ARGV[1])', ['k'], ['v\u00ff'], (args) => {
      seen.push(args);
      return '+OK\r\n';
    });
    expect(seen).toEqual([['SET', 'k', 'v\u00ff']]);
    expect(reply).toBe('+OK\r\n');
  });

  it("gives Lua 5.1's compile message, named user_script as Redis names it", () => {
    expect(evalOn(vm, 'return 1 +')).toBe("user_script:1: unexpected symbol near '<eof>'");
  });
});

describe('limits', () => {
  it('kills a backtracking pattern at the budget: pattern steps in C are charged', { timeout: 60_000 }, async () => {
    const vm = await vmWith(2_000_000);
    const reply = evalOn(vm, "return string.find(string.rep('a', 700), '.-.-.-b')");
    expect(reply).toMatch(/^-ERR Script killed by user with SCRIPT KILL\.\.\./);
    expect(vm.killed).toBe(true);
    expect(vm.used).toBeGreaterThanOrEqual(2_000_000);
    expect(vm.used).toBeLessThan(2_000_000 + 2_000);
  });

  it('kills a runaway loop at the budget, and pcall cannot swallow the kill', async () => {
    const vm = await vmWith(1_000_000);
    expect(evalOn(vm, 'while true do pcall(function() while true do end end) end')).toMatch(
      /^-ERR Script killed by user with SCRIPT KILL\.\.\./,
    );
    expect(evalOn(vm, 'return 7')).toBe(':7\r\n');
    expect(vm.killed).toBe(false);
  });

  it('refuses memory past the cap, then runs the next script on the same VM', async () => {
    const vm = await vmWith(200_000_000, 8 << 20);
    expect(evalOn(vm, "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 100) .. i end")).toBe(
      '-not enough memory\r\n',
    );
    expect(evalOn(vm, "return #string.rep('y', 1000)")).toBe(':1000\r\n');
  });
});
