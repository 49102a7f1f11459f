import { beforeAll, describe, expect, it } from 'vitest';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import { Simulation } from '../../scenario/running/simulation';
import { luaBlock } from '../../testing/luaBlock';
import { scriptFailures } from '../../scenario/running/scriptFailures';
import { placeScriptFailures } from './scriptFailures';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await loadScriptEngine();
});

/** A scenario whose one client runs `script` (a block literal) as its acquire step; line 9 is the script's line 1. */
function scenario(script: string, extraArgs = '0'): string {
  return `id: hostile
title: Hostile
clients:
  - id: A
    steps:
      - redis:
          - EVAL
          - |
${luaBlock(script)}
          - ${extraArgs}
        as: acquire
      - { write: espresso }
resource: { id: espresso }
`;
}

function failuresOf(text: string) {
  const parsed = parseScenario(text, { file: 'hostile.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  const failures = scriptFailures(new Simulation(parsed.scenario, {}, engine).run().sim.trace.toArray());
  return { failures, placed: placeScriptFailures(text, failures) };
}

describe('a hostile script, explained at the YAML line where it was stopped', () => {
  it('an endless loop: stopped by the instruction budget, at the line of the loop', () => {
    const text = scenario('local n = 0\nwhile true do\n  n = n + 1\nend');
    const { failures, placed } = failuresOf(text);
    expect(failures).toMatchObject([{ kind: 'budget', scriptLine: 3, count: 1, senders: ['A'] }]);
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({
      line: 11,
      col: 15,
      message: expect.stringMatching(
        /^In the last run: This script ran past the budget of 20 million instructions and was stopped at script line 3/,
      ),
    });
    expect(placed[0]?.severity).toBeUndefined();
    expect(text.split('\n')[10]!.trim()).toBe('n = n + 1');
  });

  it('a pattern that backtracks: stopped the same way, and said to be the pattern', () => {
    const { failures, placed } = failuresOf(
      scenario("local s = string.rep('a', 700)\nreturn string.find(s, '.-.-.-b')"),
    );
    expect(failures).toMatchObject([{ kind: 'pattern', scriptLine: 2 }]);
    expect(placed[0]).toMatchObject({
      line: 10,
      message: expect.stringMatching(/pattern match ran past the budget/),
      hint: expect.stringMatching(/string\.find\(s, text, 1, true\)/),
    });
  });

  it('deep recursion: a stack overflow at the recursive call', () => {
    const { placed } = failuresOf(scenario('local function down(n)\n  return 1 + down(n + 1)\nend\nreturn down(1)'));
    expect(placed[0]).toMatchObject({
      line: 10,
      message: expect.stringMatching(/recursed too deeply/),
      hint: expect.stringMatching(/returns without calling itself/),
    });
  });

  it('a huge string: string.rep past the memory cap, at its line; doubling past the memory cap, at the doubling', () => {
    // 1e10 repeats: Lua 5.1 on a 64-bit server truncates the count to an int (1,410,065,408 bytes).
    expect(failuresOf(scenario("local pad = 'x'\nreturn #string.rep(pad, 1e10)")).placed[0]).toMatchObject({
      line: 10,
      message: expect.stringMatching(
        /more than the 64 MiB of memory a script may have and was stopped at script line 2\.$/,
      ),
    });
    const doubled = failuresOf(scenario("local s = 'x'\nfor i = 1, 40 do\n  s = s .. s\nend\nreturn #s"));
    expect(doubled.failures[0]?.kind).toBe('memory');
    expect(doubled.placed[0]).toMatchObject({
      line: 11,
      message: expect.stringMatching(
        /more than the 64 MiB of memory a script may have and was stopped at script line 3\.$/,
      ),
    });
  });

  it('an error the script meets is a warning, with its own text and no script suffix', () => {
    const { placed } = failuresOf(scenario('local v = nil\nreturn v.field'));
    expect(placed[0]).toMatchObject({
      line: 10,
      severity: 'warning',
      message:
        "In the last run: This script failed at script line 2: ERR user_script:2: attempt to index local 'v' (a nil value)",
    });
  });

  it('finds a script written with placeholders, and drops a failure once its script is edited', () => {
    const text = scenario("local v = '{value}'\nwhile true do end", '1\n          - lock');
    const { failures, placed } = failuresOf(text);
    expect(failures[0]?.body).not.toContain('{value}');
    expect(placed.map((d) => d.line)).toEqual([10]);
    expect(placeScriptFailures(text.replace('while true do end', 'return 1'), failures)).toEqual([]);
  });
});
