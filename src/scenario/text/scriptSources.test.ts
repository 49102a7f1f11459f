import { describe, expect, it } from 'vitest';
import { scriptSources, yamlPosition } from './scriptSources';

/** The YAML text at each script line's start, to the end of that YAML line. */
function startsOf(text: string): string[][] {
  const lines = text.split('\n');
  return scriptSources(text).map((s) => s.starts.map(({ line, col }) => lines[line - 1]!.slice(col - 1)));
}

describe('Lua scripts inside a scenario, with the YAML place of each script line', () => {
  it('finds a block-literal script and maps its lines one to one', () => {
    const text = [
      'clients:',
      '  - id: A',
      '    steps:',
      '      - redis:',
      '          - EVAL',
      '          - |',
      '            local n = 0',
      '',
      '              while true do n = n + 1 end',
      '          - 0',
    ].join('\n');
    const [script] = scriptSources(text);
    expect(script?.body).toBe('local n = 0\n\n  while true do n = n + 1 end\n');
    expect(yamlPosition(script!, 1)).toEqual({ line: 7, col: 13 });
    expect(yamlPosition(script!, 3)).toEqual({ line: 9, col: 15 });
    expect(startsOf(text)[0]?.[2]).toBe('while true do n = n + 1 end');
  });

  it('starts a new script line at each \\n escape of a double-quoted script', () => {
    const text = `steps:\n  - { redis: [EVAL, "local a = 1\\nlocal b = 2\\nreturn a + b", 0] }\n`;
    expect(scriptSources(text)[0]?.body).toBe('local a = 1\nlocal b = 2\nreturn a + b');
    expect(startsOf(text)[0]).toEqual([
      'local a = 1\\nlocal b = 2\\nreturn a + b", 0] }',
      'local b = 2\\nreturn a + b", 0] }',
      'return a + b", 0] }',
    ]);
    expect(yamlPosition(scriptSources(text)[0]!, 3).line).toBe(2);
  });

  it('follows YAML folding in a quoted script written over several lines', () => {
    const text = `script:\n  - { at: 1s, do: command, target: r1, argv: [EVAL, 'local a = 1\n      local b = 2\n\n      return a', '0'] }\n`;
    const [script] = scriptSources(text);
    // One break folds into a space; a blank line is a new script line.
    expect(script?.body).toBe('local a = 1 local b = 2\nreturn a');
    expect(script?.starts.map((s) => s.line)).toEqual([2, 5]);
    expect(startsOf(text)[0]).toEqual(['local a = 1', "return a', '0'] }"]);
  });

  it('finds SCRIPT LOAD scripts and ignores other commands', () => {
    const text = `steps:\n  - { redis: [SCRIPT, LOAD, "return 1"] }\n  - { redis: [SET, EVAL, "x"] }\n  - { redis: [eval, "return 2", 0] }\n`;
    expect(scriptSources(text).map((s) => s.body)).toEqual(['return 1', 'return 2']);
  });

  it('still finds the scripts of a document with a YAML error elsewhere', () => {
    const text = `title: [unclosed\nsteps:\n  - { redis: [EVAL, "return 1", 0] }\n`;
    expect(scriptSources(text).map((s) => s.body)).toContain('return 1');
  });
});
