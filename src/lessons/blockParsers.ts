import { didYouMean, type Diagnostic, type SourceOrigin } from '../scenario/diagnostic';
import type { LuaCompiler } from '../scenario/text/luaSyntax';
import { parseScenario } from '../scenario/text/parse';
import type { Scenario } from '../scenario/schema/schema';
import { validateYaml } from '../scenario/text/schemaIssues';
import { parseYamlSource, type YamlSource } from '../scenario/text/yamlSource';
import { claimsSchema, measureOf, type Claim } from './blocks/claims';
import { checklistSchema } from './blocks/checklist';
import { afterSchema } from './blocks/after';
import { compareSchema, type CompareSpec } from './blocks/compare';
import { fillInSchema } from './blocks/fillIn';
import { matchProblems, matchSchema } from './blocks/match';
import { quizProblems, quizSchema } from './blocks/quiz';
import { reflectSchema } from './blocks/reflect';
import { looksLikeRef, scenarioRefSchema } from './blocks/scenarioRef';
import { WORKBENCH_DEFAULT_RUNS, workbenchSchema } from './blocks/workbench';
import type { Block } from './types';

/** The fenced-code languages that are lesson blocks rather than code to display. */
export const BLOCK_LANGS = [
  'scenario',
  'dashboard',
  'quiz',
  'reflect',
  'match',
  'checklist',
  'fill-in',
  'compare',
  'workbench',
  'claims',
  'after',
] as const;
export type BlockLang = (typeof BLOCK_LANGS)[number];

/** What a block parser needs besides its text: where it is and how to read sidecar files. */
export interface BlockContext {
  origin: SourceOrigin;
  /** Reads a path relative to lessons/ (e.g. `scenarios/x.yaml`); undefined when it does not exist. */
  readRef: (relPath: string) => string | undefined;
  /** How a path relative to lessons/ is shown in diagnostics (e.g. `lessons/scenarios/x.yaml`). */
  displayRef: (relPath: string) => string;
  /** Compiles scenarios' Lua scripts (see parseScenario); absent, scripts are checked only when they run. */
  compileLua?: LuaCompiler;
}

/** A parsed block before ids are assigned, or the diagnostics that stopped it. */
export type BlockParse =
  | {
      ok: true;
      block: DistributiveOmit<Exclude<Block, { kind: 'prose' | 'invalid' | 'compare' }>, 'id' | 'line'> & {
        authorId?: string;
      };
    }
  | { ok: true; pendingCompare: CompareSpec; authorId?: string }
  /** An after block: it makes no block of its own but gates the prose that follows it. */
  | { ok: true; after: string; authorId?: undefined }
  | { ok: false; diagnostics: Diagnostic[] };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Parses one fenced block's YAML according to its language. */
export function parseBlock(lang: BlockLang, text: string, ctx: BlockContext): BlockParse {
  if (!text.trim()) {
    return {
      ok: false,
      diagnostics: [
        {
          file: ctx.origin.file,
          line: ctx.origin.line - 1,
          col: 1,
          message: `empty ${lang} block`,
          hint: 'write the block as YAML between the fences',
        },
      ],
    };
  }
  // A dashboard is a scenario (checked and run like one) shown with its lock metrics drawn below.
  if (lang === 'scenario' || lang === 'dashboard')
    return parseScenarioBlock(text, ctx, lang === 'dashboard' ? { view: 'dashboard' } : {});
  const source = parseYamlSource(text, ctx.origin);
  switch (lang) {
    case 'quiz': {
      const kindProblem = checkDiscriminator(source, ctx.origin, 'kind', ['single', 'multiple', 'true-false']);
      if (kindProblem) return { ok: false, diagnostics: [kindProblem] };
      return withRules(validateYaml(source, quizSchema, ctx.origin), source, ctx.origin, quizProblems, (spec) => ({
        kind: 'quiz',
        spec,
        authorId: spec.id,
      }));
    }
    case 'reflect':
      return simple(validateYaml(source, reflectSchema, ctx.origin), (spec) => ({
        kind: 'reflect',
        spec,
        authorId: spec.id,
      }));
    case 'match':
      return withRules(validateYaml(source, matchSchema, ctx.origin), source, ctx.origin, matchProblems, (spec) => ({
        kind: 'match',
        spec,
        authorId: spec.id,
      }));
    case 'checklist':
      return withRules(
        validateYaml(source, checklistSchema, ctx.origin),
        source,
        ctx.origin,
        (s) => duplicateIds(s.items, 'items'),
        (spec) => ({ kind: 'checklist', spec, authorId: spec.id }),
      );
    case 'fill-in':
      return withRules(
        validateYaml(source, fillInSchema, ctx.origin),
        source,
        ctx.origin,
        (s) => duplicateIds(s.fields, 'fields'),
        (spec) => ({ kind: 'fill-in', spec, authorId: spec.id }),
      );
    case 'workbench':
      return parseWorkbenchBlock(source, ctx);
    case 'claims':
      return parseClaimsBlock(source, ctx);
    case 'after': {
      const result = validateYaml(source, afterSchema, ctx.origin);
      return result.ok ? { ok: true, after: result.value.quiz } : result;
    }
    case 'compare': {
      const result = validateYaml(source, compareSchema, ctx.origin);
      if (!result.ok) return result;
      const spec = result.value;
      if (!spec.scenario === !spec.ref) {
        return {
          ok: false,
          diagnostics: [
            {
              file: ctx.origin.file,
              ...source.locate([]),
              message: "a compare block needs exactly one of 'scenario' (an id in this lesson) or 'ref' (a file)",
              hint: 'e.g. scenario: paused-barista',
            },
          ],
        };
      }
      return { ok: true, pendingCompare: spec, ...(spec.id ? { authorId: spec.id } : {}) };
    }
  }
}

/** Parses a sidecar scenario named by `ref` (relative to lessons/), reporting problems in that file. */
export function loadScenarioRef(
  ref: string,
  refPlace: { line: number; col: number },
  ctx: BlockContext,
): { ok: true; scenario: Scenario } | { ok: false; diagnostics: Diagnostic[] } {
  const text = ctx.readRef(ref);
  if (text === undefined) {
    return {
      ok: false,
      diagnostics: [
        {
          file: ctx.origin.file,
          ...refPlace,
          message: `scenario file '${ref}' does not exist`,
          hint: `create ${ctx.displayRef(ref)} or fix the path`,
        },
      ],
    };
  }
  return parseScenario(text, { file: ctx.displayRef(ref), line: 1 }, luaOf(ctx));
}

/**
 * A workbench block: its recipe (`ref`) must be a valid scenario, shipped with its own text for
 * the editor; the fix (`fixed`) must be one too, but only its path is kept (lessons:check runs
 * it; the page never shows it).
 */
function parseWorkbenchBlock(source: YamlSource, ctx: BlockContext): BlockParse {
  const result = validateYaml(source, workbenchSchema, ctx.origin);
  if (!result.ok) return result;
  const spec = result.value;
  const at = { ref: source.locate(['ref']), fixed: source.locate(['fixed']) };
  const recipe = loadScenarioRef(spec.ref, at.ref, ctx);
  const fix = loadScenarioRef(spec.fixed, at.fixed, ctx);
  const diagnostics = [...(recipe.ok ? [] : recipe.diagnostics), ...(fix.ok ? [] : fix.diagnostics)];
  if (!recipe.ok || diagnostics.length) return { ok: false, diagnostics };
  // The editor's modeline is for the instructor's editor; a learner's editor has the schema built in.
  const text = ctx.readRef(spec.ref)!.replace(/^# yaml-language-server:.*\n/, '');
  return {
    ok: true,
    block: {
      kind: 'workbench',
      spec: {
        ref: spec.ref,
        text,
        scenario: recipe.scenario,
        fixed: spec.fixed,
        break: spec.break,
        runs: spec.runs ?? WORKBENCH_DEFAULT_RUNS,
        at,
      },
      ...(spec.id ? { authorId: spec.id } : {}),
    },
  };
}

/** A claims block: each claim's measure read from its words, each placed at its line for problems. */
function parseClaimsBlock(source: YamlSource, ctx: BlockContext): BlockParse {
  const result = validateYaml(source, claimsSchema, ctx.origin);
  if (!result.ok) return result;
  const claims: Claim[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [i, spec] of result.value.claims.entries()) {
    const read = measureOf(spec);
    if (read.ok) claims.push({ says: spec.says, measure: read.measure, ...source.locate(['claims', i]) });
    else
      diagnostics.push({
        file: ctx.origin.file,
        ...source.locate(['claims', i, read.path]),
        message: read.message,
        hint: read.hint,
      });
  }
  if (diagnostics.length) return { ok: false, diagnostics };
  const spec = result.value;
  return {
    ok: true,
    block: {
      kind: 'claims',
      spec: { run: spec.run ?? null, actions: spec.actions ?? [], claims },
      ...(spec.id ? { authorId: spec.id } : {}),
    },
  };
}

function parseScenarioBlock(text: string, ctx: BlockContext, view: { view?: 'dashboard' }): BlockParse {
  const source = parseYamlSource(text, ctx.origin);
  if (!source.diagnostics.length && looksLikeRef(source.value)) {
    const result = validateYaml(source, scenarioRefSchema, ctx.origin);
    if (!result.ok) return result;
    const loaded = loadScenarioRef(result.value.ref, source.locate(['ref']), ctx);
    if (!loaded.ok) return loaded;
    return {
      ok: true,
      block: {
        kind: 'scenario',
        scenario: loaded.scenario,
        ref: result.value.ref,
        authorId: loaded.scenario.id,
        ...view,
      },
    };
  }
  const parsed = parseScenario(text, ctx.origin, luaOf(ctx));
  if (!parsed.ok) return parsed;
  return { ok: true, block: { kind: 'scenario', scenario: parsed.scenario, authorId: parsed.scenario.id, ...view } };
}

function luaOf(ctx: BlockContext): { compileLua?: LuaCompiler } {
  return ctx.compileLua ? { compileLua: ctx.compileLua } : {};
}

type Rule<T> = (spec: T) => { path: (string | number)[]; message: string; hint: string }[];

function simple<T>(
  result: { ok: true; value: T } | { ok: false; diagnostics: Diagnostic[] },
  build: (spec: T) => Extract<BlockParse, { block: unknown }>['block'],
): BlockParse {
  return result.ok ? { ok: true, block: build(result.value) } : result;
}

function withRules<T>(
  result: { ok: true; value: T } | { ok: false; diagnostics: Diagnostic[] },
  source: YamlSource,
  origin: SourceOrigin,
  rule: Rule<T>,
  build: (spec: T) => Extract<BlockParse, { block: unknown }>['block'],
): BlockParse {
  if (!result.ok) return result;
  const problems = rule(result.value);
  if (!problems.length) return { ok: true, block: build(result.value) };
  return {
    ok: false,
    diagnostics: problems.map((p) => ({
      file: origin.file,
      ...source.locate(p.path),
      message: p.message,
      hint: p.hint,
    })),
  };
}

function duplicateIds(items: { id: string }[], listKey: string): ReturnType<Rule<unknown>> {
  const seen = new Set<string>();
  return items.flatMap((item, i) => {
    const dup = seen.has(item.id);
    seen.add(item.id);
    return dup
      ? [
          {
            path: [listKey, i, 'id'],
            message: `duplicate id '${item.id}' in ${listKey}`,
            hint: 'ids must be unique within the block',
          },
        ]
      : [];
  });
}

/**
 * Checks a union's discriminator before zod does, because zod's message for a missing or
 * misspelled discriminator ("invalid input") does not tell the author which values exist.
 */
function checkDiscriminator(
  source: YamlSource,
  origin: SourceOrigin,
  key: string,
  values: string[],
): Diagnostic | undefined {
  const value = source.value;
  if (source.diagnostics.length || !value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const given = (value as Record<string, unknown>)[key];
  if (given === undefined) {
    return {
      file: origin.file,
      ...source.locate([]),
      message: `missing required key '${key}'`,
      hint: `add '${key}:' with one of: ${values.join(', ')}`,
    };
  }
  if (typeof given !== 'string' || !values.includes(given)) {
    const guess = typeof given === 'string' ? didYouMean(given, values) : undefined;
    return {
      file: origin.file,
      ...source.locate([key]),
      message: `${key} must be one of: ${values.join(', ')}`,
      hint: guess ? `did you mean '${guess}'?` : `got ${JSON.stringify(given)}`,
    };
  }
  return undefined;
}
