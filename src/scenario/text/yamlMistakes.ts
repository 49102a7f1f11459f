import type { YAMLError } from 'yaml';

/** A common YAML mistake in words an author can act on, placed at the line to change. */
export interface YamlMistake {
  /** Offset in the YAML text of the character to change (the start of the line's content). */
  offset: number;
  message: string;
  hint: string;
}

interface Line {
  start: number;
  /** 0-based column of the first non-space character. */
  indent: number;
  text: string;
}

/**
 * The YAML library words mistakes by its grammar ("Nested mappings are not allowed in compact
 * mappings", "Flow sequence in block collection must be sufficiently indented") and places some
 * on the line before or after the one to change: an unclosed quote or bracket is reported where
 * the text ends, not where it was opened. This reads the lines around the error and says which
 * line to change and how. Undefined when the error is none of the common mistakes.
 * `firstLine` is the file line of the text's first line, for the lines the message names.
 */
export function yamlMistake(e: YAMLError, text: string, firstLine = 1): YamlMistake | undefined {
  const lines = splitLines(text);
  const at = lineIndexAt(lines, e.pos[0]);
  const line = lines[at]!;
  const lineNo = (i: number) => firstLine + i;
  if (e.code === 'TAB_AS_INDENT') {
    return {
      offset: line.start,
      message: 'this line is indented with a tab; YAML indents with spaces only',
      hint: 'replace the tab with spaces (two per level)',
    };
  }
  const quote = /Missing closing (["'])quote/.exec(e.message)?.[1];
  if (quote) return unclosedQuote(lines, quote, lineNo);
  const bracket = /Flow (sequence|map) in block collection/.exec(e.message)?.[1];
  if (bracket) return unclosedBracket(lines, at, bracket === 'sequence' ? '[' : '{', lineNo);
  if (isListItem(line)) {
    const stray = listItemAmongKeys(lines, at, lineNo);
    if (stray) return stray;
  }
  if (e.code === 'BAD_INDENT' || (e.code === 'MISSING_CHAR' && /without - indicator/.test(e.message)))
    return outOfStep(lines, at, lineNo);
  if (
    e.code === 'BLOCK_AS_IMPLICIT_KEY' ||
    e.code === 'MULTILINE_IMPLICIT_KEY' ||
    (e.code === 'MISSING_CHAR' && /followed by map values/.test(e.message))
  ) {
    if (isListItem(line) || /block sequence/.test(e.message)) return outOfStep(lines, at, lineNo);
    return deeperThanItsKey(lines, at);
  }
  return undefined;
}

/**
 * `key: value` with a more indented line below it: the author meant that line as a sibling key
 * (indented one step too far), or meant `key` to hold a mapping (and wrote a value too).
 */
function deeperThanItsKey(lines: Line[], at: number): YamlMistake | undefined {
  const line = lines[at]!;
  const next = nextContentLine(lines, at);
  const key = keyOf(line);
  if (next === undefined || !key || lines[next]!.indent <= key.col) return undefined;
  const below = lines[next]!;
  const belowKey = keyOf(below)?.name ?? below.text.trim().split(/\s/)[0]!;
  const value = line.text.slice(key.col + key.name.length + 1).trim();
  return {
    offset: below.start + below.indent,
    message: `'${belowKey}' is indented further than '${key.name}' on the line above, so YAML reads it as part of ${key.name}'s value (${value})`,
    hint: `to make it a key next to '${key.name}', start it at column ${key.col + 1}; to put it inside '${key.name}', write '${key.name}:' with nothing after it and indent its keys below`,
  };
}

/** A `- item` line at the column of the keys above it: a mapping cannot also hold list items. */
function listItemAmongKeys(lines: Line[], at: number, lineNo: (i: number) => number): YamlMistake | undefined {
  const line = lines[at]!;
  const prev = previousContentLine(lines, at);
  if (prev === undefined) return undefined;
  const above = lines[prev]!;
  const key = keyOf(above);
  if (!key || isListItem(above) || key.col !== line.indent) return undefined;
  const owner = ownerKey(lines, prev, line.indent);
  const where = owner ? `'${owner}'` : 'this block';
  return {
    offset: line.start + line.indent,
    message: `a list item ('- ') among the keys of ${where}: a mapping cannot also hold list items`,
    hint: owner
      ? `if ${owner} is a list, start each of its entries with '- ' (line ${lineNo(prev)} too); otherwise remove the '- ' here`
      : `remove the '- ' here, or give the list a key of its own ('name:' on its own line, the items indented under it)`,
  };
}

/** The key that opens the mapping a line at `indent` belongs to: the nearest line above with less indent. */
function ownerKey(lines: Line[], from: number, indent: number): string | undefined {
  for (let i = from; i >= 0; i--) {
    const l = lines[i]!;
    if (isContent(l) && l.indent < indent) return keyOf(l)?.name;
  }
  return undefined;
}

/** A line that starts at a column no line above it uses: the columns it can line up with instead. */
function outOfStep(lines: Line[], at: number, lineNo: (i: number) => number): YamlMistake | undefined {
  const line = lines[at]!;
  const item = isListItem(line);
  // What the lines above offer to line up with: list dashes for a list item, keys for a key.
  const candidates: { col: number; say: string }[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const above = lines[i]!;
    if (!isContent(above)) continue;
    const dash = /^(\s*)- /.exec(above.text);
    const key = keyOf(above);
    const col = item ? (dash ? dash[1]!.length : undefined) : key?.col;
    if (col !== undefined && col !== line.indent && !candidates.some((c) => c.col === col)) {
      candidates.push({ col, say: item ? `the dash on line ${lineNo(i)}` : `'${key!.name}' on line ${lineNo(i)}` });
    }
    if (above.indent === 0) break;
  }
  if (!candidates.length) return undefined;
  const distance = (c: { col: number }) => Math.abs(c.col - line.indent);
  const best = Math.min(...candidates.map(distance));
  const nearest = candidates.filter((c) => distance(c) === best);
  const what = item ? 'this list item' : `'${keyOf(line)?.name ?? line.text.trim()}'`;
  return {
    offset: line.start + line.indent,
    message: `${what} starts at column ${line.indent + 1}, which lines up with nothing above it`,
    hint:
      nearest.map((c) => `start it at column ${c.col + 1}, under ${c.say}`).join(', or ') +
      (item ? ', to make it an item of that list' : ', to make it a key of that mapping'),
  };
}

/** The first line whose quoted value does not close on that line: where the quote was opened. */
function unclosedQuote(lines: Line[], quote: string, lineNo: (i: number) => number): YamlMistake | undefined {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const open = new RegExp(`(?:^\\s*(?:- )*|: |- |[[{,]\\s*)${quote}`).exec(l.text);
    if (!open) continue;
    const from = open.index + open[0].length;
    const rest = quote === "'" ? l.text.slice(from).replace(/''/g, '') : l.text.slice(from).replace(/\\./g, '');
    if (rest.includes(quote)) continue;
    return {
      offset: l.start + from - 1,
      message: `the ${quote === '"' ? 'double' : 'single'} quote opened here is never closed, so YAML reads every line after it (to line ${lineNo(lastContentLine(lines))}) as one text`,
      hint: `add the closing ${quote} at the end of the value on this line`,
    };
  }
  return undefined;
}

/** The line whose `[` or `{` is not closed on that line: flow lists and mappings must close before the next key. */
function unclosedBracket(
  lines: Line[],
  at: number,
  open: '[' | '{',
  lineNo: (i: number) => number,
): YamlMistake | undefined {
  const close = open === '[' ? ']' : '}';
  for (let i = at; i >= 0; i--) {
    const l = lines[i]!;
    const bare = l.text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '');
    const depth = [...bare].reduce((d, ch) => d + (ch === open ? 1 : ch === close ? -1 : 0), 0);
    if (depth <= 0) continue;
    return {
      offset: l.start + l.text.indexOf(open),
      message: `the '${open}' opened on line ${lineNo(i)} is never closed`,
      hint: `add '${close}' after the last ${open === '[' ? 'item' : 'entry'}, on this line`,
    };
  }
  return undefined;
}

const isListItem = (line: Line) => /^\s*-(?:\s|$)/.test(line.text);

/** The key a line sets (`key:` or `- key:`), and its 0-based column. */
function keyOf(line: Line): { name: string; col: number } | undefined {
  const match = /^(\s*(?:- )*)([A-Za-z_][\w-]*):(?:\s|$)/.exec(line.text);
  return match ? { name: match[2]!, col: match[1]!.length } : undefined;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    out.push({ start, indent: raw.length - raw.trimStart().length, text: raw.replace(/\r$/, '') });
    start += raw.length + 1;
  }
  return out;
}

function lineIndexAt(lines: Line[], offset: number): number {
  let i = 0;
  while (i + 1 < lines.length && lines[i + 1]!.start <= offset) i++;
  return i;
}

const isContent = (line: Line) => line.text.trim() !== '' && !line.text.trim().startsWith('#');

function previousContentLine(lines: Line[], at: number): number | undefined {
  for (let i = at - 1; i >= 0; i--) if (isContent(lines[i]!)) return i;
  return undefined;
}

function lastContentLine(lines: Line[]): number {
  return previousContentLine(lines, lines.length) ?? 0;
}

function nextContentLine(lines: Line[], at: number): number | undefined {
  for (let i = at + 1; i < lines.length; i++) if (isContent(lines[i]!)) return i;
  return undefined;
}
