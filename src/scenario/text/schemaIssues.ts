import { z } from 'zod';
import { describePath, didYouMean, type Diagnostic, type SourceOrigin } from '../diagnostic';
import type { YamlSource } from './yamlSource';

// A parsed YAML document held to a zod schema: zod's issues as diagnostics at the line and
// column of the key or value they are about, in an author's words (yamlSource.ts reads the YAML).

/**
 * Validates a parsed YAML value against a zod schema and turns every issue into a placed
 * diagnostic. Unknown keys get a "did you mean" hint from the keys the schema allows there.
 */
export function validateYaml<T>(
  source: YamlSource,
  schema: z.ZodType<T>,
  origin: SourceOrigin,
): { ok: true; value: T } | { ok: false; diagnostics: Diagnostic[] } {
  if (source.diagnostics.length) return { ok: false, diagnostics: source.diagnostics };
  const result = schema.safeParse(source.value);
  if (result.success) return { ok: true, value: result.data };
  const diagnostics = result.error.issues.flatMap((issue) => issueDiagnostics(issue, source, schema, origin));
  return { ok: false, diagnostics: oneMessagePerTypo(diagnostics) };
}

/**
 * `sumary:` for `summary:` is one mistake, not two: the unknown key whose did-you-mean names a
 * required key missing beside it says so, and the "missing required key" line goes.
 */
function oneMessagePerTypo(diagnostics: Diagnostic[]): Diagnostic[] {
  const parentOf = (d: Diagnostic) => JSON.stringify(d.path?.slice(0, -1) ?? []);
  const missing = new Map(
    diagnostics.filter((d) => d.message.startsWith(MISSING)).map((d) => [`${parentOf(d)}${String(d.path?.at(-1))}`, d]),
  );
  const covered = new Set<Diagnostic>();
  const out = diagnostics.map((d) => {
    const guess = d.message.startsWith('unknown key')
      ? /^did you mean '([^']+)'\?$/.exec(d.hint ?? '')?.[1]
      : undefined;
    const gap = guess === undefined ? undefined : missing.get(`${parentOf(d)}${guess}`);
    if (!gap) return d;
    covered.add(gap);
    return {
      ...d,
      hint: `did you mean '${guess}'? It is required, so rename '${String(d.path?.at(-1))}' to '${guess}'`,
    };
  });
  return out.filter((d) => !covered.has(d));
}

const MISSING = 'missing required key';

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
  const input = valueAt(source.value, path);
  const missing =
    (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') &&
    input === undefined &&
    path.length > 0;
  if (issue.code === 'invalid_union' && !missing) {
    // One branch of a union (a duration: number or text; retry: a name or settings) fits the
    // value's type: its own problem is the one to report, not zod's bare "Invalid input".
    const branch = fittingBranch(issue);
    if (branch)
      return branch.flatMap((sub) =>
        issueDiagnostics({ ...sub, path: [...path, ...sub.path] } as Issue, source, root, origin),
      );
  }
  const where = missing ? source.locate(path.slice(0, -1)) : source.locate(path);
  return [{ file: origin.file, ...where, path, ...describeIssue(issue, path, missing, input) }];
}

/**
 * The issues of the union branch whose shape the value has: a branch that failed only because
 * the value is of another type (or has another discriminator) is not what the author meant.
 */
function fittingBranch(issue: Issue & { code: 'invalid_union' }): Issue[] | undefined {
  return branchesOf(issue).find((issues) => issues.length > 0 && !wrongShape(issues));
}

function branchesOf(issue: Issue): Issue[][] {
  return (issue as { errors?: Issue[][] }).errors ?? [];
}

/** A branch the value cannot be meant for: its type (or a nested union's every branch) is wrong at the root. */
function wrongShape(issues: Issue[]): boolean {
  return issues.some(
    (i) =>
      i.path.length === 0 &&
      (i.code === 'invalid_type' ||
        i.code === 'invalid_value' ||
        (i.code === 'invalid_union' && branchesOf(i).every(wrongShape))),
  );
}

/** The types a union accepts at its root, through nested unions: `number`, `string`, `object`. */
function rootTypes(issue: Issue): string[] {
  return branchesOf(issue).flatMap((branch) =>
    branch
      .filter((i) => i.path.length === 0)
      .flatMap((i) => (i.code === 'invalid_type' ? [i.expected] : i.code === 'invalid_union' ? rootTypes(i) : [])),
  );
}

function describeIssue(
  issue: Issue,
  path: (string | number)[],
  missing: boolean,
  input: unknown,
): { message: string; hint?: string } {
  const name = describePath(path);
  if (missing) {
    const key = path[path.length - 1];
    const options = issue.code === 'invalid_union' ? (issue as { options?: unknown[] }).options : undefined;
    return {
      message: `${MISSING} '${key}'`,
      hint: options?.length ? `add '${key}:' with one of: ${options.map(String).join(', ')}` : `add '${key}:' here`,
    };
  }
  switch (issue.code) {
    case 'invalid_type':
      return { message: `${name} should be ${article(issue.expected)}`, hint: gotInstead(input, issue.expected) };
    case 'invalid_value':
      return {
        message: `${name} must be one of: ${issue.values.map((v) => String(v)).join(', ')}`,
        hint: suggestion(input, issue.values.map(String)),
      };
    case 'invalid_union': {
      // A discriminated union (a step's or an action's `do`) names the values it accepts.
      const { note, options } = issue as { note?: string; options?: unknown[] };
      if (note === 'No matching discriminator' && options?.length) {
        return {
          message: `${name} must be one of: ${options.map(String).join(', ')}`,
          hint: suggestion(input, options.map(String)),
        };
      }
      const expected = [...new Set(rootTypes(issue))];
      if (expected.length) return { message: `${name} should be ${expected.map(article).join(' or ')}` };
      return { message: `${name}: ${issue.message}` };
    }
    default:
      return { message: `${name}: ${issue.message}` };
  }
}

/** What the author wrote instead of the expected type, and the fix when it is plain. */
function gotInstead(input: unknown, expected: string): string {
  const shown = JSON.stringify(input)?.slice(0, 40) ?? String(input);
  if (typeof input === 'string' && expected === 'number' && input.trim() !== '' && Number.isFinite(Number(input)))
    return `${shown} is text because of its quotes: remove them`;
  const kind =
    input === null
      ? 'empty (null)'
      : Array.isArray(input)
        ? 'a list'
        : typeof input === 'object'
          ? 'a mapping'
          : typeof input === 'string'
            ? 'text'
            : `${article(typeof input)}`;
  return `it is ${kind} here${input !== null && typeof input !== 'object' ? `: ${shown}` : ''}`;
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
