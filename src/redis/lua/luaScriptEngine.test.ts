import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../reply';
import { loadLuaEngine, type LuaScriptEngine } from './index';
import { TestKeyspace } from '../../testing/testKeyspace';

// Expected texts below were taken from redis-server 7.0.15 (see README.md in this folder).
const SHA = 'b6d4c2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5';
const at = (line: number) => ` script: ${SHA}, on @user_script:${line}.`;

let engine: LuaScriptEngine;
let keyspace: TestKeyspace;

beforeAll(async () => {
  engine = await loadLuaEngine();
});

function run(body: string, keys: string[] = [], args: string[] = []): Reply {
  keyspace ??= new TestKeyspace();
  return engine.run(keyspace.request(body, keys, args));
}

const int = (value: number | bigint): Reply => ({ type: 'integer', value: BigInt(value) });
const str = (value: string | null): Reply => ({ type: 'bulk', value });
const err = (value: string): Reply => ({ type: 'error', value });
const arr = (...value: Reply[]): Reply => ({ type: 'array', value });

describe('Lua value -> reply', () => {
  it('truncates numbers toward zero', () => {
    expect(run('return 3.99')).toEqual(int(3));
    expect(run('return -3.99')).toEqual(int(-3));
    expect(run('return 10 / 4')).toEqual(int(2));
  });
  it('answers C cast overflow (INT64_MIN) for inf, nan and huge numbers', () => {
    expect(run('return {1/0, -1/0, 0/0, 2^63}')).toEqual(arr(...Array(4).fill(int(-9223372036854775808n))));
  });
  it('turns strings into bulk, true into 1, false and nil into nil', () => {
    expect(run("return 'a'")).toEqual(str('a'));
    expect(run('return true')).toEqual(int(1));
    expect(run('return false')).toEqual(str(null));
    expect(run('return nil')).toEqual(str(null));
    expect(run('return')).toEqual(str(null));
    expect(run('return print')).toEqual(
      err(`ERR user_script:1: Script attempted to access nonexistent global variable 'print'${at(1)}`),
    );
  });
  it('turns tables into arrays that stop at the first nil, nesting included', () => {
    expect(run('return {1,2,nil,4}')).toEqual(arr(int(1), int(2)));
    expect(run("return {3.99, true, false, 'a', {1,{2}}}")).toEqual(
      arr(int(3), int(1), str(null), str('a'), arr(int(1), arr(int(2)))),
    );
  });
  it('turns {err=...} into an error without prefix and {ok=...} into a status', () => {
    expect(run("return {err='x'}")).toEqual(err('x'));
    expect(run("return {err='MY x\\r\\ny'}")).toEqual(err('MY x  y'));
    expect(run("return {ok='FINE'}")).toEqual({ type: 'status', value: 'FINE' });
    expect(run('return {err=5}')).toEqual(arr());
    expect(run('return {double=0.1}')).toEqual(str('0.10000000000000001'));
  });
  it('builds error and status replies like redis.error_reply/status_reply', () => {
    expect(run("return redis.error_reply('boom')")).toEqual(err('ERR boom'));
    expect(run("return redis.error_reply('MY boom')")).toEqual(err('MY boom'));
    expect(run("return redis.error_reply('-MY boom')")).toEqual(err('MY boom'));
    expect(run('return redis.error_reply(5)')).toEqual(err('ERR wrong number or type of arguments'));
    expect(run("return redis.status_reply('FINE')")).toEqual({ type: 'status', value: 'FINE' });
  });
});

describe('reply -> Lua value', () => {
  it('gives false for nil, a number for an integer, a string for bulk, {ok=} for status', () => {
    expect(run("return type(redis.call('get', 'missing'))")).toEqual(str('boolean'));
    expect(run("redis.call('set', 'n', '41') return redis.call('incr', 'n') + 1")).toEqual(int(43));
    expect(run("return type(redis.call('incr', 'n'))")).toEqual(str('number'));
    expect(run("return redis.call('get', 'n') .. '!'")).toEqual(str('43!'));
    expect(run("return redis.call('ping').ok")).toEqual(str('PONG'));
    expect(run("return redis.call('ping')")).toEqual({ type: 'status', value: 'PONG' });
  });
  it('converts arrays, with nested errors as {err=} tables', () => {
    expect(run("local t = redis.call('mixed') return {t[1], type(t[2]), t[3].ok, t[4].err, t[5][1]}")).toEqual(
      arr(int(1), str('boolean'), str('OK'), str('ERR inner'), str('x')),
    );
  });
  it('raises command errors from redis.call with the script suffix and the right line', () => {
    run("redis.call('set', 'k', 'abc')");
    expect(run("return redis.call('incr', 'k')")).toEqual(err(`ERR value is not an integer or out of range${at(1)}`));
    expect(run("local x = 1\nlocal y = 2\nreturn redis.call('incr', 'k')")).toEqual(
      err(`ERR value is not an integer or out of range${at(3)}`),
    );
  });
  it('returns command errors from redis.pcall as error tables', () => {
    expect(run("return redis.pcall('incr', 'k')")).toEqual(err('ERR value is not an integer or out of range'));
    expect(run("return redis.pcall('incr', 'k').err")).toEqual(str('ERR value is not an integer or out of range'));
  });
  it('hands pcall(redis.call, ...) the error message as a string, as Redis 7.0 does', () => {
    expect(run("local ok, e = pcall(redis.call, 'incr', 'k') return {tostring(ok), e}")).toEqual(
      arr(str('false'), str('ERR value is not an integer or out of range')),
    );
  });
  it("checks redis.call's arguments with Redis's texts", () => {
    expect(run('return redis.call()')).toEqual(
      err(`ERR Please specify at least one argument for this redis lib call${at(1)}`),
    );
    expect(run("return redis.call('get', {})")).toEqual(
      err(`ERR Lua redis lib command arguments must be strings or integers${at(1)}`),
    );
    expect(run("return redis.pcall('get', nil)")).toEqual(
      err('ERR Lua redis lib command arguments must be strings or integers'),
    );
  });
  it('keeps writes done before an error (no rollback)', () => {
    expect(run("redis.call('set', 'kept', '1') error('late')")).toEqual(err(`ERR user_script:1: late${at(1)}`));
    expect(keyspace.values.get('kept')).toBe('1');
  });
  it('runs a cached body again with fresh KEYS, ARGV and locals', () => {
    const body = 'local n = 0 n = n + 1 return {KEYS[1], n}';
    expect(run(body, ['first'])).toEqual(arr(str('first'), int(1)));
    expect(run(body, ['second'])).toEqual(arr(str('second'), int(1)));
  });
  it('passes KEYS and ARGV, byte strings included', () => {
    expect(run('return {KEYS[1], ARGV[1], #KEYS, #ARGV}', ['key'], ['arg'])).toEqual(
      arr(str('key'), str('arg'), int(1), int(1)),
    );
    expect(run('return {string.len(ARGV[1]), ARGV[1]}', [], ['a\u0000b\u00ff'])).toEqual(
      arr(int(4), str('a\u0000b\u00ff')),
    );
  });
});

describe('number arguments to redis.call', () => {
  it('are formatted with %.17g', () => {
    const stored = (expression: string) => {
      run(`redis.call('set', 'f', ${expression})`);
      return keyspace.values.get('f');
    };
    expect(stored('0.1')).toBe('0.10000000000000001');
    expect(stored('10/2')).toBe('5');
    expect(stored('1e20')).toBe('1e+20');
    expect(stored('2^53+1')).toBe('9007199254740992');
    expect(stored('-7')).toBe('-7');
  });
});

describe('environment', () => {
  it('reports Lua 5.1', () => {
    expect(run('return _VERSION')).toEqual(str('Lua 5.1'));
  });
  it('refuses unknown globals with Redis message', () => {
    for (const name of [
      'os',
      'io',
      'print',
      'require',
      'dofile',
      'loadfile',
      'debug',
      'getfenv',
      'setfenv',
      'package',
    ]) {
      expect(run(`return ${name}`)).toEqual(
        err(`ERR user_script:1: Script attempted to access nonexistent global variable '${name}'${at(1)}`),
      );
    }
  });
  it('has the Redis 5.1 libraries', () => {
    expect(
      run(
        'return {type(unpack), type(loadstring), type(bit), type(cjson), type(redis.sha1hex), type(string.gfind), type(table.getn), type(math.mod)}',
      ),
    ).toEqual(
      arr(...['function', 'function', 'table', 'table', 'function', 'function', 'function', 'function'].map(str)),
    );
    expect(run('return {unpack({1,2,3})}')).toEqual(arr(int(1), int(2), int(3)));
    expect(run("return loadstring('return 1+1')()")).toEqual(int(2));
    expect(run("return redis.sha1hex('')")).toEqual(str('da39a3ee5e6b4b0d3255bfef95601890afd80709'));
    expect(run('return {table.pack, string.pack, math.tointeger, utf8}')).toEqual(
      err(`ERR user_script:1: Script attempted to access nonexistent global variable 'utf8'${at(1)}`),
    );
  });
  it('makes globals and libraries read-only', () => {
    expect(run('x = 5')).toEqual(err(`ERR user_script:1: Attempt to modify a readonly table${at(1)}`));
    expect(run('string.x = 5')).toEqual(err(`ERR user_script:1: Attempt to modify a readonly table${at(1)}`));
    expect(run('redis.call = nil')).toEqual(err(`ERR user_script:1: Attempt to modify a readonly table${at(1)}`));
    expect(run("rawset(string, 'x', 5)")).toEqual(err(`ERR Attempt to modify a readonly table${at(1)}`));
    expect(run('setmetatable(_G, {})')).toEqual(err(`ERR Attempt to modify a readonly table${at(1)}`));
    expect(run("getmetatable('').x = 1")).toEqual(err(`ERR user_script:1: Attempt to modify a readonly table${at(1)}`));
    expect(run("KEYS[1] = 'x' return KEYS[1]", ['a'])).toEqual(str('x'));
    expect(run('local n = 0 for k in pairs(string) do n = n + 1 end return n')).toEqual(int(15));
  });
  it('prints numbers like 5.1 through tostring and string.format', () => {
    expect(run("return tostring(10/2) .. ' ' .. tostring(2^53) .. ' ' .. tostring(0.1)")).toEqual(
      str('5 9.007199254741e+15 0.1'),
    );
    expect(run("return string.format('%d %s %5.2f %x', 3.7, 2.5, 1, 255)")).toEqual(str('3 2.5  1.00 ff'));
    expect(run('return tostring(math.floor(3.7)) .. tostring(tonumber("1e3"))')).toEqual(str('31000'));
  });
  it('words runtime errors as Lua 5.1 does', () => {
    expect(run('local x = nil; return x.y')).toEqual(
      err(`ERR user_script:1: attempt to index local 'x' (a nil value)${at(1)}`),
    );
    expect(run('error(5)')).toEqual(err(`ERR user_script:1: 5${at(1)}`));
    expect(run('error()')).toEqual(err(`ERR nil${at(1)}`));
    expect(run("error({err='MYERR x'})")).toEqual(err(`MYERR x${at(1)}`));
    expect(run("return cjson.decode('bad')")).toEqual(
      err(`ERR user_script:1: Expected value but found invalid token at character 1${at(1)}`),
    );
  });
  it('has cjson and bit', () => {
    expect(run('return cjson.encode({1,2,3,{a=1}})')).toEqual(str('[1,2,3,{"a":1}]'));
    expect(run("return cjson.encode('a\"b/\\n')")).toEqual(str('"a\\"b\\/\\n"'));
    expect(run('return cjson.decode(\'[1,2,{"a":3}]\')[3].a')).toEqual(int(3));
    expect(run('return {bit.band(0xff, 0x0f), bit.bnot(0), bit.tohex(255), tostring(bit.lshift(1, 31))}')).toEqual(
      arr(int(15), int(-1), str('000000ff'), str('-2147483648')),
    );
  });
});

describe('simulator-only behaviour', () => {
  it("resets cjson's settings before the next script: a run must not depend on the run before", () => {
    expect(run('cjson.encode_max_depth(2) return cjson.encode_max_depth()')).toEqual(int(2));
    expect(run('return cjson.encode_max_depth()')).toEqual(int(1000));
    expect(run('return cjson.encode({{{1}}})')).toEqual(str('[[[1]]]'));
  });
  it('answers a table raised without err, where redis-server 7.0.15 crashes', () => {
    expect(run("error({foo='x'})")).toEqual(err(`ERR Error running script ${SHA}, execution failure`));
  });
});

describe('reply nesting', () => {
  it("stops a table that contains itself with redis-server's message, 1,000 arrays deep (Redis: 7,995)", () => {
    let reply = run('local t = {} t[1] = t return t');
    let depth = 0;
    while (reply.type === 'array' && reply.value?.length === 1) {
      reply = reply.value[0] as Reply;
      depth++;
    }
    expect({ depth, reply }).toEqual({ depth: 1001, reply: err('ERR reached lua stack limit') });
  });
});

describe('math.random', () => {
  it('follows Redis 7.0 rand48: never reseeded between scripts, same sequence per fresh engine', async () => {
    const fresh = await loadLuaEngine();
    const local = new TestKeyspace();
    expect(fresh.run(local.request('return math.random(1000)'))).toEqual(int(397));
    expect(fresh.run(local.request('return math.random(1000)'))).toEqual(int(841));
    expect(fresh.run(local.request('return tostring(math.random())'))).toEqual(str('0.35333609737146'));
    expect(fresh.run(local.request('math.randomseed(42) return {math.random(1000), math.random(1000)}'))).toEqual(
      arr(int(745), int(343)),
    );
    const other = await loadLuaEngine();
    expect(other.run(local.request('return math.random(1000)'))).toEqual(int(397));
  });
});

describe('5.1 syntax', () => {
  const compileError = (message: string) => err(`ERR Error compiling script (new function): user_script:1: ${message}`);
  it('rejects 5.3+ operators and statements as 5.1 does', () => {
    expect(run('return 7 // 2')).toEqual(compileError("unexpected symbol near '/'"));
    expect(run('return 7 & 3')).toEqual(compileError("'<eof>' expected near '&'"));
    expect(run('return 7 | 3')).toEqual(compileError("'<eof>' expected near '|'"));
    expect(run('return ~7')).toEqual(compileError("unexpected symbol near '~'"));
    expect(run('return 1 << 2')).toEqual(compileError("unexpected symbol near '<'"));
    expect(run('return 1 >> 2')).toEqual(compileError("unexpected symbol near '>'"));
    expect(run('goto done')).toEqual(compileError("'=' expected near 'done'"));
    expect(run('::top::')).toEqual(compileError("unexpected symbol near ':'"));
    expect(run('local x <const> = 5')).toEqual(compileError("unexpected symbol near '<'"));
  });
  it('compiles without running for an editor: the same message as EVAL, and nothing of the script runs', () => {
    const broken = 'local x = 1\nif x then\n  return x\n';
    expect(run(broken)).toEqual(err(`ERR Error compiling script (new function): ${engine.compileError(broken)}`));
    expect(engine.compileError(broken)).toBe("user_script:4: 'end' expected (to close 'if' at line 2) near '<eof>'");
    expect(engine.compileError('return 7 // 2')).toBe("user_script:1: unexpected symbol near '/'");
    // A loop that never ends compiles at once; a script that writes writes nothing.
    expect(engine.compileError('while true do end')).toBeNull();
    expect(engine.compileError("redis.call('SET', 'compiled', 'ran')")).toBeNull();
    expect(run("return redis.call('GET', 'compiled')")).toEqual(str(null));
  });
  it("quotes '<eof>' like 5.1 and keeps 5.1's escapes", () => {
    expect(run('return 1 +')).toEqual(compileError("unexpected symbol near '<eof>'"));
    expect(run("return 'a\\x41'")).toEqual(str('ax41'));
    expect(run("return 'a ~= b' .. '//'")).toEqual(str('a ~= b//'));
    expect(run('return 1 ~= 2 -- a // b & c')).toEqual(int(1));
  });
});

describe('runaway scripts and memory bombs', () => {
  it('cuts an infinite loop within the budget, like SCRIPT KILL', () => {
    // The budget is counted in Lua instructions, not wall time, so the cut is deterministic:
    // a runaway script stops at the same instruction on every machine, however busy.
    const budget = engine.limits.instructionBudget;
    expect(run('while true do end')).toEqual(err(`ERR Script killed by user with SCRIPT KILL...${at(1)}`));
    expect(engine.lastRun.killed).toBe(true);
    expect(engine.lastRun.instructions).toBeGreaterThanOrEqual(budget);
    expect(engine.lastRun.instructions).toBeLessThanOrEqual(budget * 1.01);
    expect(run('local i = 0\nwhile true do pcall(function() while true do i = i + 1 end end) end')).toEqual(
      err(`ERR Script killed by user with SCRIPT KILL...${at(2)}`),
    );
    expect(engine.lastRun.instructions).toBeLessThanOrEqual(budget * 1.01);
    expect(run('return 1')).toEqual(int(1));
    expect(engine.lastRun.killed).toBe(false);
  });
  it('survives memory bombs, says at which script line the cap stopped them, and keeps answering', () => {
    const outOfMemory = (line: number) =>
      err(`ERR Error running script ${SHA}, not enough memory, on @user_script:${line}.`);
    expect(run("local s = string.rep('x', 1e9) return #s")).toEqual(outOfMemory(1));
    expect(run("local t = {} while true do t[#t+1] = string.rep('x', 4096) .. #t end")).toEqual(outOfMemory(1));
    expect(run("local s = 'x'\nfor i = 1, 40 do\n  s = s .. s\nend\nreturn #s")).toEqual(outOfMemory(3));
    expect(run('local t = {}\nlocal function fill(n)\n  for i = 1, n do\n    t[i] = i\n  end\nend\nfill(1e9)')).toEqual(
      outOfMemory(4),
    );
    expect(run("return #string.rep('x', 1000)")).toEqual(int(1000));
    expect(run("return redis.call('ping')")).toEqual({ type: 'status', value: 'PONG' });
  });
  it('restarts a collector a script stopped and collects the garbage it left before the next script', () => {
    const bomb =
      "collectgarbage('stop') local t = {} for i = 1, 300 do t[i] = string.rep('x', 65536) .. i end return #t";
    expect(run(bomb)).toEqual(int(300));
    // Stopped, the collector would let these 19 MiB of garbage pile up (Lua 5.1 has no 'isrunning' to ask).
    expect(
      run("for i = 1, 300 do local s = string.rep('x', 65536) .. i end return collectgarbage('count') < 8192"),
    ).toEqual(int(1));
  });
  it('answers the next script after one filled the heap to the cap and kept it', () => {
    // The memory error is caught inside the script, so the VM is kept with a full heap; the
    // next script's KEYS and ARGV (one of them large) must still be built: a memory error
    // outside any Lua call would abort the WebAssembly module. That script is compiled
    // beforehand, since compiling it on a full heap would fail.
    const count = 'return #KEYS + #ARGV';
    expect(run(count)).toEqual(int(0));
    const fill = `local t = {} KEYS.t = t
      for _, size in ipairs({65536, 1024, 16}) do
        pcall(function() while true do t[#t+1] = string.rep('x', size) .. #t end end)
      end
      return #t > 0`;
    expect(run(fill, ['a'])).toEqual(int(1));
    expect(engine.lastRun.restarted).toBe(false);
    expect(run(count, ['b1', 'b2', 'b3'], ['c'.repeat(100_000)])).toEqual(int(4));
    // Replacing KEYS leaves the filled table to the collector.
    expect(run(count)).toEqual(int(0));
    expect(run('return 5')).toEqual(int(5));
  });
  it('restarts its VM when a command throws, and the script sees an error reply', () => {
    const throwing = {
      ...new TestKeyspace().request("return redis.pcall('get', 'x')"),
      call: () => {
        throw new Error('boom');
      },
    };
    expect(engine.run(throwing)).toEqual(err('ERR boom'));
    expect(run("return redis.call('ping')")).toEqual({ type: 'status', value: 'PONG' });
  });
});

describe('forServer', () => {
  it('gives each server process its own math.random sequence on one shared VM', async () => {
    const engine = await loadLuaEngine();
    const local = new TestKeyspace();
    const script = 'return math.random(1000)';
    const first = engine.forServer();
    const second = engine.forServer();
    const a1 = first.run(local.request(script));
    const b1 = second.run(local.request(script));
    // Both start where a fresh redis-server starts (397), and advance independently.
    expect(a1).toEqual(int(397));
    expect(b1).toEqual(int(397));
    expect(first.run(local.request(script))).toEqual(int(841));
  });
});
