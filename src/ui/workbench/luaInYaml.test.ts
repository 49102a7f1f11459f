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
  it("highlights the script of an EVAL step as Lua", () => {
    const text = `steps:\n  - { redis: [EVAL, "local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then return 1 end", 1, lock] }\n`;
    expect(keywords(text)).toEqual(expect.arrayContaining(['local', 'if', 'then', 'return', 'end']));
  });

  it('highlights a block-scalar script', () => {
    const text = `steps:\n  - redis:\n      - EVAL\n      - |\n        local v = 1\n        return v\n      - 0\n`;
    expect(keywords(text)).toEqual(expect.arrayContaining(['local', 'return']));
  });

  it('leaves other strings alone', () => {
    expect(keywords(`title: "local if then end"\nsteps:\n  - { redis: [SET, "local", x] }\n`)).toEqual([]);
  });
});
