/**
 * Where the cursor is in a scenario's YAML, read from the text itself rather than from a parse:
 * the text being typed is half-written most of the time, and a YAML parser gives up (or guesses)
 * exactly there. Block structure comes from indentation and `- ` markers on the lines above; a
 * flow collection on the cursor's own line (`- { redis: [SET, lock` ) is scanned character by
 * character. Multi-line flow collections are not followed; completion then offers nothing.
 */

export type YamlPath = (string | number)[];

export type CursorContext =
  /** Typing a key of the mapping at `path`; `siblings` are the keys already there, with their plain values. */
  | { kind: 'key'; path: YamlPath; siblings: Record<string, string>; from: number }
  /** Typing the value of `path` (its last element is the key). */
  | { kind: 'value'; path: YamlPath; siblings: Record<string, string>; from: number }
  /** Typing item `path[last]` of a flow list such as `redis: [SET, …]`. */
  | { kind: 'item'; path: YamlPath; from: number };

interface Token {
  col: number;
  kind: 'item' | 'key';
  name?: string;
  value?: string;
}

const KEY = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/;

/** The `- ` markers and the key a block line starts with, at their columns. */
function lineTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let col = line.search(/\S/);
  if (col < 0 || line[col] === '#') return tokens;
  while (line[col] === '-' && (line[col + 1] === ' ' || col + 1 === line.length)) {
    tokens.push({ col, kind: 'item' });
    col += 1;
    while (line[col] === ' ') col++;
  }
  const key = KEY.exec(line.slice(col).replace(/\s+#.*$/, ''));
  if (key) tokens.push({ col, kind: 'key', name: key[1]!, value: (key[2] ?? '').trim() });
  return tokens;
}

interface Piece {
  col: number;
  kind: 'item' | 'key';
  name?: string;
  index: number;
}

/**
 * The block path above a position: ancestors found by walking up the lines before `lineIndex`,
 * each less indented than the one below it. `pieces` are the current line's own markers and key.
 */
function blockPath(
  lines: readonly string[],
  lineIndex: number,
  own: Piece[],
  ownCol: number,
  ownIsItem: boolean,
): { path: YamlPath; siblings: Record<string, string> } {
  const ancestors: Piece[] = [...own];
  const siblings: Record<string, string> = {};
  let need = own.length ? own[0]!.col : ownCol;
  let childIsItem = own.length ? own[0]!.kind === 'item' : ownIsItem;
  // While the innermost mapping's own keys are still being passed, they are siblings.
  let collectingSiblings = !own.some((p) => p.kind === 'item') || own[own.length - 1]!.kind === 'item';
  const siblingCol = ownCol;
  for (let i = lineIndex - 1; i >= 0 && (need > 0 || childIsItem || collectingSiblings); i--) {
    const tokens = lineTokens(lines[i]!);
    for (let t = tokens.length - 1; t >= 0; t--) {
      const token = tokens[t]!;
      if (collectingSiblings && token.kind === 'key' && token.col === siblingCol)
        siblings[token.name!] = token.value ?? '';
      const open = ancestors[0];
      if (token.kind === 'item' && open?.kind === 'item' && token.col === open.col && t === 0 && need === open.col) {
        open.index++;
        continue;
      }
      if (token.col < need || (token.col === need && token.kind === 'key' && childIsItem)) {
        if (token.col < siblingCol) collectingSiblings = false;
        ancestors.unshift({
          col: token.col,
          kind: token.kind,
          ...(token.name !== undefined ? { name: token.name } : {}),
          index: 0,
        });
        need = token.col;
        childIsItem = token.kind === 'item';
      }
    }
  }
  return { path: ancestors.map((p) => (p.kind === 'item' ? p.index : p.name!)), siblings };
}

interface Frame {
  type: 'map' | 'seq';
  key?: string;
  afterColon: boolean;
  index: number;
  word: string;
  wordFrom: number;
  siblings: Record<string, string>;
}

/**
 * What is being typed at `offset` in `text`.
 *
 * @example cursorContext('clients:\n  - { id: A, rec', 27) // { kind: 'key', path: ['clients', 0], … }
 */
export function cursorContext(text: string, offset: number): CursorContext | null {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const before = text.slice(lineStart, offset);
  if (/(^|\s)#/.test(before.replace(/'[^']*'|"[^"]*"/g, ''))) return null;

  const own: Piece[] = [];
  let col = before.search(/\S|$/);
  while (before[col] === '-' && before[col + 1] === ' ') {
    own.push({ col, kind: 'item', index: 0 });
    col += 1;
    while (before[col] === ' ') col++;
  }
  const rest = before.slice(col);

  if (!/[{[]/.test(rest)) {
    const { path, siblings } = blockPath(lines, lines.length, own, col, false);
    const typingKey = /^[\w-]*$/.exec(rest);
    if (typingKey) return { kind: 'key', path, siblings, from: lineStart + col };
    const value = /^([A-Za-z_][\w-]*):\s+([^\s,]*)$/.exec(rest);
    if (value) return { kind: 'value', path: [...path, value[1]!], siblings, from: offset - value[2]!.length };
    return null;
  }

  // A flow collection on this line: `{ key: value, … }` and `[a, b, …]`, possibly nested.
  const keyMatch = /^([A-Za-z_][\w-]*):\s*/.exec(rest);
  const basePieces: Piece[] = keyMatch ? [...own, { col, kind: 'key', name: keyMatch[1]!, index: 0 }] : own;
  const { path: base } = blockPath(lines, lines.length, basePieces, col, false);
  const stack: Frame[] = [];
  const flowPath: YamlPath = [];
  let quote: string | null = null;
  for (let i = keyMatch ? keyMatch[0].length : 0; i < rest.length; i++) {
    const ch = rest[i]!;
    const top = stack[stack.length - 1];
    if (quote) {
      if (ch === quote) quote = null;
      if (top) top.word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      if (top) top.word += ch;
      continue;
    }
    if (ch === '{' || ch === '[') {
      if (top) flowPath.push(top.type === 'map' ? (top.key ?? '') : top.index);
      stack.push({
        type: ch === '{' ? 'map' : 'seq',
        afterColon: false,
        index: 0,
        word: '',
        wordFrom: i + 1,
        siblings: {},
      });
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      flowPath.pop();
      const parent = stack[stack.length - 1];
      if (parent) parent.word = '\u0000';
    } else if (!top) {
      continue;
    } else if (ch === ',') {
      if (top.type === 'map' && top.key !== undefined) top.siblings[top.key] = top.word.trim();
      top.key = undefined;
      top.afterColon = false;
      top.index++;
      top.word = '';
      top.wordFrom = i + 1;
    } else if (ch === ':' && top.type === 'map' && !top.afterColon && (rest[i + 1] === ' ' || i + 1 === rest.length)) {
      top.key = top.word.trim();
      top.afterColon = true;
      top.word = '';
      top.wordFrom = i + 1;
    } else {
      if (/\s/.test(ch) && top.word.trim() === '') top.wordFrom = i + 1;
      top.word += ch;
    }
  }
  const top = stack[stack.length - 1];
  if (!top || quote || top.word.includes('\u0000')) return null;
  const from = lineStart + col + top.wordFrom;
  const path = [...base, ...flowPath];
  if (top.type === 'seq') return { kind: 'item', path: [...path, top.index], from };
  if (!top.afterColon) return /^\s*[\w-]*$/.test(top.word) ? { kind: 'key', path, siblings: top.siblings, from } : null;
  return { kind: 'value', path: [...path, top.key!], siblings: top.siblings, from };
}
