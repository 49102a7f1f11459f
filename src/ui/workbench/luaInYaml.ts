import { yamlLanguage } from '@codemirror/lang-yaml';
import { LanguageSupport, StreamLanguage } from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import { parseMixed, type Input, type SyntaxNode } from '@lezer/common';

/**
 * Lua's tokens without its indentation rules: the legacy mode indents from column 0 and
 * re-indents a line as soon as `end` is typed, which inside a YAML block scalar moved the line
 * out of the block and broke the scenario. Without them a new line keeps the indentation of
 * the line before it, which is what a script inside YAML needs.
 */
const luaParser = StreamLanguage.define({
  ...lua,
  indent: undefined,
  languageData: { commentTokens: { line: '--' } },
}).parser;

/** How many words precede the script in a command that carries one: `EVAL script …`, `SCRIPT LOAD script`. */
function scriptCommand(words: readonly string[]): boolean {
  const [first, second] = words.map((w) => w.toUpperCase());
  return (
    (words.length === 1 && (first === 'EVAL' || first === 'EVAL_RO')) ||
    (words.length === 2 && first === 'SCRIPT' && second === 'LOAD')
  );
}

/** The plain words of the items before `item` in its sequence (quotes dropped). */
function wordsBefore(item: SyntaxNode, input: Input): string[] {
  const words: string[] = [];
  for (let n = item.prevSibling; n; n = n.prevSibling) {
    if (n.name === 'Item')
      words.unshift(
        input
          .read(n.from, n.to)
          .trim()
          .replace(/^['"]|['"]$/g, ''),
      );
  }
  return words;
}

/**
 * YAML with Lua highlighted inside the script of a Redis command step, where authors write
 * their locks' release and renew scripts: `redis: [EVAL, "local v = redis.call('GET', KEYS[1]) …", 1, lock]`.
 * The script string is parsed a second time as Lua (CodeMirror's mixed parsing), so both
 * languages colour the same text: YAML the quotes, Lua what is inside them.
 */
export function yamlWithLua(): LanguageSupport {
  const language = yamlLanguage.configure({
    wrap: parseMixed((ref, input) => {
      if (ref.name !== 'QuotedLiteral' && ref.name !== 'BlockLiteralContent') return null;
      // A block scalar (`- |` and indented lines) sits one level deeper, in its BlockLiteral.
      const parent = ref.node.parent;
      const item = parent?.name === 'BlockLiteral' ? parent.parent : parent;
      if (item?.name !== 'Item' || !scriptCommand(wordsBefore(item, input))) return null;
      const quoted = ref.name === 'QuotedLiteral';
      const script = { from: ref.from + (quoted ? 1 : 0), to: ref.to - (quoted ? 1 : 0) };
      // An empty script has nothing to parse, and Lezer throws on an empty overlay ("Invalid inner
      // parse ranges"): typing `"` after `EVAL, ` makes one, as the editor closes the quote at once.
      if (script.to <= script.from) return null;
      return { parser: luaParser, overlay: [script] };
    }),
  });
  return new LanguageSupport(language);
}
