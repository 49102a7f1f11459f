import { beforeAll, describe, expect, it } from 'vitest';
import { loadLuaEngine } from '../../redis/lua/index';
import { luaBlock } from '../../testing/luaBlock';
import { luaSyntaxDiagnostics, type LuaCompiler } from './luaSyntax';
import { parseScenario } from './parse';

let compile: LuaCompiler;
beforeAll(async () => {
  const engine = await loadLuaEngine();
  compile = (body) => engine.compileError(body);
});

const WORKBENCH = { file: 'workbench.yaml', line: 1 };

const SCENARIO = (script: string) => `id: release
title: Release
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - redis:
          - EVAL
          - |
${luaBlock(script)}
          - 1
          - lock
          - '{value}'
resource: { id: espresso }
`;

describe('Lua syntax errors in a scenario, at their line', () => {
  it("places an unclosed if at the YAML line where the script ends, not at the script's line 1", () => {
    const text = SCENARIO(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nelse\n  return 0",
    );
    const [d, more] = luaSyntaxDiagnostics(text, compile, WORKBENCH);
    expect(more).toBeUndefined();
    expect(d).toMatchObject({
      line: 13,
      message: "Lua syntax error (script line 4): 'end' expected (to close 'if' at line 1) near '<eof>'",
      hint: 'close every if, for, while and function with end',
    });
  });

  it('points at the token a 5.3 operator stops at, and says Redis runs 5.1', () => {
    const text = SCENARIO('local half = 7 // 2\nreturn half');
    const [d] = luaSyntaxDiagnostics(text, compile, WORKBENCH);
    expect(d).toMatchObject({
      line: 10,
      col: 28,
      message: "Lua syntax error (script line 1): unexpected symbol near '/'",
    });
    expect(text.split('\n')[9]!.slice(d!.col - 1)).toBe('// 2');
    expect(d?.hint).toMatch(/^Redis runs Lua 5\.1: no \/\//);
  });

  it('turns a valid scenario invalid, and adds to the problems of an invalid one, in line order', () => {
    const good = SCENARIO("return redis.call('DEL', KEYS[1])");
    expect(parseScenario(good, WORKBENCH, { compileLua: compile }).ok).toBe(true);
    const bad = SCENARIO('return (').replace('title: Release', 'title: Release\nttl: 1s');
    const result = parseScenario(bad, WORKBENCH, { compileLua: compile });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics.map((d) => d.line)).toEqual([3, 11]);
    expect(result.diagnostics[1]?.message).toMatch(
      /^Lua syntax error \(script line 1\): unexpected symbol near '<eof>'/,
    );
  });

  it('never runs a script to check it', () => {
    expect(luaSyntaxDiagnostics(SCENARIO('while true do end'), compile, WORKBENCH)).toEqual([]);
  });
});
