import { isMap, isScalar, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { z } from 'zod';
import { describePath, didYouMean, type Diagnostic, type SourceOrigin } from './diagnostic';

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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: origin.line + line - 1, col };
  };
  const diagnostics: Diagnostic[] = [...doc.errors, ...doc.warnings].map((e) => ({
    file: origin.file,
    ...at(e.pos[0]),
    message: yamlMessage(e.code, e.message),
    hint: e.code === 'DUPLICATE_KEY' ? 'each key may appear once; remove or rename one of them' : 'check indentation, colons and quotes',
  }));
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
function toValue(doc: Document, origin: SourceOrigin, at: (offset: number) => { line: number; col: number }, diagnostics: Diagnostic[]): unknown {
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
      message: /alias/i.test(why) ? `the aliases here (*name) expand to too many values (more than ${MAX_ALIAS_COUNT} copies)` : `YAML could not be read: ${why}`,
      hint: 'write the values out, or use fewer aliases: an alias of an alias multiplies',
    });
    return undefined;
  }
}

/** How many times aliases may be expanded in one block: far more than any scenario needs. */
const MAX_ALIAS_COUNT = 100;

function yamlMessage(code: string, message: string): string {
  if (code === 'DUPLICATE_KEY') return 'duplicate key';
  return `YAML syntax error: ${message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
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
      found = (last && wantKey ? pair.key : pair.value ?? pair.key) as Node;
    } else {
      node = items[Number(step)];
      if (node) found = node as Node;
    }
  }
  return found;
}

/**
 * Validates a parsed YAML value against a zod schema and turns every issue into a placed
 * diagnostic. Unknown keys get a "did you mean" hint from the keys the schema allows there.
 */
export function validateYaml<T>(source: YamlSource, schema: z.ZodType<T>, origin: SourceOrigin):
  | { ok: true; value: T }
  | { ok: false; diagnostics: Diagnostic[] } {
  if (source.diagnostics.length) return { ok: false, diagnostics: source.diagnostics };
  const result = schema.safeParse(source.value);
  if (result.success) return { ok: true, value: result.data };
  const diagnostics = result.error.issues.flatMap((issue) => issueDiagnostics(issue, source, schema, origin));
  return { ok: false, diagnostics };
}

type Issue = z.core.$ZodIssue;

function issueDiagnostics(issue: Issue, source: YamlSource, root: z.ZodType, origin: SourceOrigin): Diagnostic[] {
  const path = issue.path as (string | number)[];
  if (issue.code === 'unrecognized_keys') {
    const allowed = objectKeysAt(root, path, source.value);
    return issue.keys.map((key) => {
      const guess = didYouMean(key, allowed);
      return {
        file: origin.file,
        ...source.locate([...path, key], { key: true }),
        path: [...path, key],
        message: `unknown key '${key}'${path.length ? ` in ${describePath(path)}` : ''}`,
        hint: guess ? `did you mean '${guess}'?` : `allowed keys: ${allowed.join(', ')}`,
      };
    });
  }
  const missing = issue.code === 'invalid_type' && valueAt(source.value, path) === undefined;
  const where = missing ? source.locate(path.slice(0, -1)) : source.locate(path);
  return [{ file: origin.file, ...where, path, ...describeIssue(issue, path, missing, valueAt(source.value, path)) }];
}

function describeIssue(issue: Issue, path: (string | number)[], missing: boolean, input: unknown): { message: string; hint?: string } {
  const name = describePath(path);
  if (missing) return { message: `missing required key '${path[path.length - 1]}'`, hint: `add '${path[path.length - 1]}:' here` };
  switch (issue.code) {
    case 'invalid_type':
      return { message: `${name} should be ${article(issue.expected)}`, hint: issue.message };
    case 'invalid_value':
      return {
        message: `${name} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`,
        hint: suggestion(input, issue.values.map(String)),
      };
    case 'invalid_union': {
      // A discriminated union (a step's or an action's `do`) names the values it accepts.
      const { note, options } = issue as { note?: string; options?: unknown[] };
      if (note === 'No matching discriminator' && options?.length) {
        return { message: `${name} must be one of: ${options.map(String).join(', ')}`, hint: suggestion(input, options.map(String)) };
      }
      return { message: `${name}: ${issue.message}` };
    }
    default:
      return { message: `${name}: ${issue.message}` };
  }
}

function suggestion(input: unknown, options: string[]): string | undefined {
  const guess = typeof input === 'string' ? didYouMean(input, options) : undefined;
  return guess ? `did you mean '${guess}'?` : undefined;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export { describePath };

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const step of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** The keys an object schema accepts at `path`, walking through optional/array/union wrappers. */
function objectKeysAt(root: z.ZodType, path: readonly (string | number)[], rootValue: unknown): string[] {
  let candidates: z.ZodType[] = [root];
  for (let i = 0; i <= path.length; i++) {
    candidates = candidates.flatMap(unwrap);
    if (i === path.length) break;
    const step = path[i]!;
    candidates = candidates.flatMap((s): z.ZodType[] => {
      if (s instanceof z.ZodObject) {
        const child = (s.shape as Record<string, z.ZodType | undefined>)[String(step)];
        return child ? [child] : [];
      }
      if (s instanceof z.ZodArray) return [s.element as z.ZodType];
      if (s instanceof z.ZodRecord) return [s.valueType as z.ZodType];
      return [];
    });
  }
  const value = valueAt(rootValue, path);
  const objects = candidates.filter((s): s is z.ZodObject => s instanceof z.ZodObject);
  // For a union of object shapes, prefer the branch whose literal fields match the value.
  const matching = objects.filter((s) => literalFieldsMatch(s, value));
  const chosen = matching.length ? matching : objects;
  return [...new Set(chosen.flatMap((s) => Object.keys(s.shape)))];
}

/**
 * The schemas a value is checked against once wrappers are peeled off, through zod's public
 * classes (their `unwrap()`, a pipe's `in`, a union's `options`), not its private internals.
 */
function unwrap(s: z.ZodType): z.ZodType[] {
  if (
    s instanceof z.ZodOptional ||
    s instanceof z.ZodNullable ||
    s instanceof z.ZodDefault ||
    s instanceof z.ZodPrefault ||
    s instanceof z.ZodReadonly ||
    s instanceof z.ZodCatch ||
    s instanceof z.ZodLazy
  ) {
    return unwrap(s.unwrap() as z.ZodType);
  }
  if (s instanceof z.ZodPipe) return unwrap(s.in as z.ZodType);
  if (s instanceof z.ZodUnion) return (s.options as readonly z.ZodType[]).flatMap(unwrap);
  return [s];
}

function literalFieldsMatch(s: z.ZodObject, value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  let sawLiteral = false;
  for (const [key, field] of Object.entries(s.shape)) {
    if (!(field instanceof z.ZodLiteral)) continue;
    sawLiteral = true;
    if (!field.values.has((value as Record<string, unknown>)[key] as never)) return false;
  }
  return sawLiteral;
}
