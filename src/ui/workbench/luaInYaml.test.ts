import { indentOnInput } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { classHighlighter, highlightTree } from '@lezer/highlight';
import { describe, expect, it } from 'vitest';
import { yamlWithLua } from './luaInYaml';

/** The words of `text` that come out highlighted as keywords. */
function keywords(text: string): string[] {
  const tree = yamlWithLua().language.parser.parse(text);
  const out: string[] = [];
  highlightTree(tree, classHighlighter, (from, to, classes) => {
    if (classes.split(' ').includes('tok-keyword')) out.push(text.slice(from, to));
  });
  return out;
}

describe('Lua inside a scenario', () => {
  it('highlights the script of an EVAL step as Lua', () => {
    const text = `steps:\n  - { redis: [EVAL, "local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then return 1 end", 1, lock] }\n`;
    expect(keywords(text)).toEqual(expect.arrayContaining(['local', 'if', 'then', 'return', 'end']));
  });

  it('highlights a block-scalar script', () => {
    const text = `steps:\n  - redis:\n      - EVAL\n      - |\n        local v = 1\n        return v\n      - 0\n`;
    expect(keywords(text)).toEqual(expect.arrayContaining(['local', 'return']));
  });

  it('parses an empty script, as the editor makes one when `"` is typed after `EVAL, ` (Lezer threw on the empty range)', () => {
    for (const text of [
      `steps:\n  - { redis: [EVAL, ""] }\n`,
      `steps:\n  - { redis: [EVAL, ''] }\n`,
      `steps:\n  - { redis: [EVAL, "] }\n`,
    ]) {
      expect(() => keywords(text)).not.toThrow();
    }
    expect(keywords(`steps:\n  - { redis: [EVAL, "return 1"] }\n`)).toEqual(['return']);
  });

  it('leaves other strings alone', () => {
    expect(keywords(`title: "local if then end"\nsteps:\n  - { redis: [SET, "local", x] }\n`)).toEqual([]);
  });
});

describe('typing Lua inside a block scalar', () => {
  it('keeps the line where it is when `end` is typed (the Lua mode re-indented it to column 0, out of the YAML block)', () => {
    const text = `steps:\n  - redis:\n      - EVAL\n      - |\n        if x then\n          return 1\n        en\n      - 0\n`;
    const at = text.indexOf('        en\n') + '        en'.length;
    let state = EditorState.create({
      doc: text,
      selection: { anchor: at },
      extensions: [yamlWithLua(), indentOnInput()],
    });
    state = state.update({
      changes: { from: at, insert: 'd' },
      selection: { anchor: at + 1 },
      userEvent: 'input.type',
    }).state;
    expect(state.doc.line(7).text).toBe('        end');
  });
});
