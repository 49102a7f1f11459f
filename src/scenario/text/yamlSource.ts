import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type Node, type YAMLError } from 'yaml';
import type { Diagnostic, SourceOrigin } from '../diagnostic';
import { yamlBoundsProblem } from './inputBounds';
import { yamlMistake } from './yamlMistakes';

export type YamlPath = readonly (string | number)[];

/** A parsed YAML block that can say where any of its values came from. */
export interface YamlSource {
  /** The plain JavaScript value (undefined when the text did not parse). */
  value: unknown;
  /** Syntax errors and duplicate keys, already placed in the file. */
  diagnostics: Diagnostic[];
  /** The file position of the value at `path` (or of its key, with `{ key: true }`). */
  locate(path: YamlPath, options?: { key?: boolean }): { line: number; col: number };
}

/**
 * Parses YAML with the `yaml` package (which never evaluates code) keeping source positions.
 * Positions are reported in the enclosing file: a block that starts on line 40 of a lesson
 * reports its line 3 as line 42.
 */
export function parseYamlSource(text: string, origin: SourceOrigin): YamlSource {
  const refusal = yamlBoundsProblem(text, origin);
  if (refusal)
    return { value: undefined, diagnostics: [refusal], locate: () => ({ line: refusal.line, col: refusal.col }) };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: origin.line + line - 1, col };
  };
  const diagnostics = oncePerPlace(
    [...doc.errors, ...doc.warnings]
      .filter((e) => !isBlankDuplicate(e, text))
      .map((e): Diagnostic => {
        // A common mistake is reported at the line to change, which may not be where the parser stopped.
        const mistake = yamlMistake(e, text, origin.line);
        if (mistake) return { file: origin.file, ...at(mistake.offset), message: mistake.message, hint: mistake.hint };
        return { file: origin.file, ...at(e.pos[0]), ...yamlProblem(e, text, doc, at) };
      }),
  );
  const value = doc.errors.length ? undefined : toValue(doc, origin, at, diagnostics);
  return {
    value,
    diagnostics,
    locate(path, options) {
      const node = findNode(doc, path, options?.key ?? false);
      return at(node?.range?.[0] ?? 0);
    },
  };
}

/**
 * The block's plain value. The yaml package refuses to expand aliases past a limit (a few lines of
 * nested `*a` can otherwise expand to billions of values and exhaust memory): that refusal becomes
 * a diagnostic at the first alias, like any other YAML error, instead of an exception that would
 * lose every other problem in the file.
 */
function toValue(
  doc: Document,
  origin: SourceOrigin,
  at: (offset: number) => { line: number; col: number },
  diagnostics: Diagnostic[],
): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    let offset = 0;
    visit(doc, {
      Alias: (_, node) => {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const why = error instanceof Error ? error.message : String(error);
    diagnostics.push({
      file: origin.file,
      ...at(offset),
      message: /alias/i.test(why)
        ? `the aliases here (*name) expand to too many values (more than ${MAX_ALIAS_COUNT} copies)`
        : `YAML could not be read: ${why}`,
      hint: 'write the values out, or use fewer aliases: an alias of an alias multiplies',
    });
    return undefined;
  }
}

/**
 * A "duplicate key" with no name: the parser's reading of lines a tab or a stray indent already
 * broke, so the mistake itself is the one message.
 */
function isBlankDuplicate(e: YAMLError, text: string): boolean {
  return e.code === 'DUPLICATE_KEY' && text.slice(e.pos[0], e.pos[1]).trim() === '';
}

/**
 * One mistake, one message: the parser often reports a mistake as two or three errors at the
 * same place ("Nested mappings are not allowed…" and "Implicit keys need to be on a single line"),
 * which read the same once translated.
 */
function oncePerPlace(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<number>();
  return diagnostics.filter((d) => {
    if (seen.has(d.line)) return false;
    seen.add(d.line);
    return true;
  });
}

/** How many times aliases may be expanded in one block: far more than any scenario needs. */
const MAX_ALIAS_COUNT = 100;

/** A YAML error in words a newcomer can act on, with the fix where one can be read off the text. */
function yamlProblem(
  e: YAMLError,
  text: string,
  doc: Document,
  at: (offset: number) => { line: number; col: number },
): { message: string; hint: string } {
  const [from, to] = e.pos;
  if (e.code === 'DUPLICATE_KEY') {
    const dup = duplicateOf(doc, from);
    const first = dup && at(dup.firstOffset);
    return {
      message: `duplicate key '${dup?.key ?? text.slice(from, to)}'${first ? `: it is already set at line ${first.line}, column ${first.col}` : ''}`,
      hint: 'each key may appear once in a mapping; remove or rename one of them',
    };
  }
  const lineEnd = text.indexOf('\n', from) === -1 ? text.length : text.indexOf('\n', from);
  const rest = text.slice(from, lineEnd);
  if ((e.code === 'BLOCK_AS_IMPLICIT_KEY' || e.code === 'BLOCK_IN_FLOW') && rest.includes(': ')) {
    // `title: Yes: it does` or `{ text: Locks: why }`: the value's own ': ' starts a new mapping.
    const inFlow = e.code === 'BLOCK_IN_FLOW';
    const value = (inFlow ? rest.slice(0, Math.max(0, rest.search(/\s*[,}\]]/)) || rest.length) : rest).trim();
    return {
      message: "this value contains ': ' (a colon and a space), which YAML reads as the start of a new key",
      hint: `put the whole value in quotes: "${value.replace(/"/g, '\\"')}"`,
    };
  }
  return {
    message: `YAML syntax error: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    hint: 'check indentation, colons and quotes',
  };
}

/** The key written again at `offset`, and where it was first written. */
function duplicateOf(doc: Document, offset: number): { key: string; firstOffset: number } | undefined {
  let found: { key: string; firstOffset: number } | undefined;
  visit(doc, {
    Map: (_, map) => {
      const dup = map.items.find((p) => isScalar(p.key) && p.key.range?.[0] === offset);
      if (!dup || !isScalar(dup.key)) return undefined;
      const key = dup.key.value;
      const first = map.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (isScalar(first?.key) && first.key.range) found = { key: String(key), firstOffset: first.key.range[0] };
      return visit.BREAK;
    },
  });
  return found;
}

/** The deepest node along `path` that exists, so an error always has a place to point. */
function findNode(doc: Document, path: YamlPath, wantKey: boolean): Node | undefined {
  let node: unknown = doc.contents;
  let found = node as Node | undefined;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    if (!node || typeof node !== 'object' || !('items' in node)) break;
    const items = (node as { items: unknown[] }).items;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) break;
      const last = i === path.length - 1;
      node = pair.value;
      found = (last && wantKey ? pair.key : (pair.value ?? pair.key)) as Node;
    } else {
      node = items[Number(step)];
      if (node) found = node as Node;
    }
  }
  return found;
}
