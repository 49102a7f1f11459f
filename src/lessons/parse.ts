import type { Code, Nodes, Root, RootContent } from 'mdast';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { didYouMean, type Diagnostic } from '../scenario/diagnostic';
import { MAX_LESSON_CHARS, tooLong } from '../scenario/text/inputBounds';
import type { LuaCompiler } from '../scenario/text/luaSyntax';
import type { Scenario } from '../scenario/schema/schema';
import { validateYaml } from '../scenario/text/schemaIssues';
import { parseYamlSource } from '../scenario/text/yamlSource';
import { BLOCK_LANGS, loadScenarioRef, parseBlock, type BlockContext, type BlockLang } from './blockParsers';
import type { CompareSide, CompareSpec } from './blocks/compare';
import { frontmatterSchema, splitFrontmatter } from './frontmatter';
import { sanitizeMdast } from './sanitize';
import type { Block, Lesson } from './types';

/** A relative link to another lesson file found in the prose, checked against the catalog later. */
export interface LessonLink {
  /** The target as written, e.g. `04-simplest-lock.md`. */
  target: string;
  line: number;
  col: number;
}

export interface ParseLessonOptions {
  /** Reads a file relative to lessons/ (for `ref: scenarios/x.yaml`); undefined when missing. */
  readRef?: (relPath: string) => string | undefined;
  /** Compiles the scenarios' Lua scripts, so a script that does not compile is a problem at its line. */
  compileLua?: LuaCompiler;
}

/** The lesson (null when its frontmatter is unusable) and every problem found in the file. */
export interface ParseLessonResult {
  lesson: Lesson | null;
  /**
   * The body's blocks, also when the frontmatter is unusable: a frontmatter mistake is one
   * problem, and must not hide whether the lesson's scenarios still do what they expect.
   */
  blocks: Block[];
  diagnostics: Diagnostic[];
  links: LessonLink[];
  /** Where a frontmatter value sits in the file, for problems found across lessons (e.g. a duplicate slug). */
  locate: (path: (string | number)[]) => { line: number; col: number };
}

// Languages that are obviously code samples, never misspelled block names ("math" is one edit from "match").
const CODE_LANGS = new Set([
  'math',
  'js',
  'ts',
  'sh',
  'bash',
  'yaml',
  'yml',
  'json',
  'lua',
  'redis',
  'text',
  'sql',
  'python',
  'go',
  'console',
  'diff',
]);

/**
 * Parses a lesson file: YAML frontmatter (with the `yaml` package, which never evaluates code),
 * then the Markdown body with remark. Fenced blocks named in BLOCK_LANGS become typed blocks;
 * everything else becomes sanitised prose. Problems are reported with the file's own line numbers.
 *
 * @example parseLesson(text, 'lessons/05-paused-barista.md', { readRef: (p) => readFileSync(`lessons/${p}`, 'utf8') })
 */
export function parseLesson(text: string, file: string, options: ParseLessonOptions = {}): ParseLessonResult {
  const huge = tooLong(text, MAX_LESSON_CHARS, { file, line: 1 }, 'this lesson');
  if (huge) return { lesson: null, blocks: [], diagnostics: [huge], links: [], locate: () => ({ line: 1, col: 1 }) };
  const split = splitFrontmatter(text, file);
  if (!split.ok)
    return {
      lesson: null,
      blocks: [],
      diagnostics: [split.diagnostic],
      links: [],
      locate: () => ({ line: 1, col: 1 }),
    };

  const origin = { file, line: split.yamlLine };
  const source = parseYamlSource(split.yaml, origin);
  const locate = (path: (string | number)[]) => source.locate(path);
  const frontmatter = validateYaml(source, frontmatterSchema, origin);
  const diagnostics: Diagnostic[] = frontmatter.ok ? [] : [...frontmatter.diagnostics];

  const lessonsDir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  const ctx = (line: number): BlockContext => ({
    origin: { file, line },
    readRef: options.readRef ?? (() => undefined),
    displayRef: (rel) => `${lessonsDir}/${rel}`,
    ...(options.compileLua ? { compileLua: options.compileLua } : {}),
  });

  const root = unified().use(remarkParse).use(pipeTables).parse(split.body) as Root;
  const { blocks, blockDiagnostics } = splitBlocks(root, ctx);
  diagnostics.push(...blockDiagnostics, ...nestedBlockFences(root, file));
  const links = lessonLinks(root);

  if (!frontmatter.ok) return { lesson: null, blocks, diagnostics, links, locate };
  return { lesson: { file, frontmatter: frontmatter.value, blocks }, blocks, diagnostics, links, locate };
}

/**
 * GitHub's pipe tables, the one part of GFM the lessons use. The whole of remark-gfm would also
 * turn bare addresses into links and `~one~` into struck-out text, changing prose already written.
 */
function pipeTables(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfmTable());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown());
}

function splitBlocks(
  root: Root,
  ctx: (line: number) => BlockContext,
): { blocks: Block[]; blockDiagnostics: Diagnostic[] } {
  const blocks: Block[] = [];
  const blockDiagnostics: Diagnostic[] = [];
  const counters = new Map<string, number>();
  const usedIds = new Map<string, number>();
  const pendingCompares: { index: number; spec: CompareSpec; line: number }[] = [];
  let prose: RootContent[] = [];
  // The quiz an ```after block named: what follows it, prose and blocks up to the next heading,
  // waits for that quiz.
  let after: string | null = null;

  const flushProse = () => {
    const sanitize = (nodes: RootContent[]) =>
      sanitizeMdast(nodes, root, (node, message, hint) =>
        blockDiagnostics.push({
          file: ctx(0).origin.file,
          line: node.position?.start.line ?? 1,
          col: node.position?.start.column ?? 1,
          severity: 'warning',
          message,
          hint,
        }),
      );
    const heading = after === null ? 0 : prose.findIndex((n) => n.type === 'heading');
    const gated = prose.slice(0, heading < 0 ? prose.length : heading);
    const gatedNodes = gated.length ? sanitize(gated) : [];
    if (gatedNodes.length > 0)
      blocks.push({ kind: 'prose', nodes: gatedNodes, after: after!, line: gated[0]!.position?.start.line ?? 1 });
    const rest = sanitize(prose.slice(gated.length));
    if (rest.length > 0) {
      blocks.push({ kind: 'prose', nodes: rest });
      after = null; // a heading ends the held-back part
    }
    prose = [];
  };
  const held = (): { after?: string } => (after === null ? {} : { after });

  for (const node of root.children) {
    const lang = node.type === 'code' ? blockLang(node, ctx(0).origin.file, blockDiagnostics) : undefined;
    if (!lang || node.type !== 'code') {
      prose.push(node);
      continue;
    }
    flushProse();
    const fenceLine = node.position?.start.line ?? 1;
    const n = (counters.get(lang) ?? 0) + 1;
    counters.set(lang, n);
    const parsed = parseBlock(lang, node.value, ctx(fenceLine + 1));
    if (parsed.ok && 'after' in parsed) {
      const quiz = blocks.find((b) => b.kind === 'quiz' && b.id === parsed.after);
      if (quiz) after = parsed.after;
      else
        blockDiagnostics.push({
          file: ctx(0).origin.file,
          line: fenceLine + 1,
          col: 1,
          message: `after: there is no quiz '${parsed.after}' before this block`,
          hint: `name a quiz above it: ${
            blocks
              .filter((b) => b.kind === 'quiz')
              .map((b) => b.id)
              .join(', ') || 'this lesson has none yet'
          }`,
        });
      continue;
    }
    const authorId = !parsed.ok ? undefined : 'pendingCompare' in parsed ? parsed.authorId : parsed.block.authorId;
    const id = authorId ?? `${lang}-${n}`;
    const firstLine = usedIds.get(id);
    if (firstLine !== undefined) {
      blockDiagnostics.push({
        file: ctx(0).origin.file,
        line: fenceLine,
        col: 1,
        message: `duplicate block id '${id}' (also used on line ${firstLine})`,
        hint: 'give each block its own id',
      });
    }
    usedIds.set(id, fenceLine);
    if (!parsed.ok) {
      blockDiagnostics.push(...parsed.diagnostics);
      blocks.push({ kind: 'invalid', id, line: fenceLine, lang, diagnostics: parsed.diagnostics, ...held() });
    } else if ('pendingCompare' in parsed) {
      pendingCompares.push({ index: blocks.length, spec: parsed.pendingCompare, line: fenceLine });
      blocks.push({ kind: 'invalid', id, line: fenceLine, lang, diagnostics: [], ...held() });
    } else {
      const { authorId: _authorId, ...block } = parsed.block;
      blocks.push({ ...block, id, line: fenceLine, ...held() } as Block);
    }
  }
  flushProse();

  for (const pending of pendingCompares) {
    const placeholder = blocks[pending.index] as Extract<Block, { kind: 'invalid' }>;
    const resolved = resolveCompare(pending.spec, blocks, ctx(pending.line + 1));
    if (resolved.ok) {
      blocks[pending.index] = {
        kind: 'compare',
        id: placeholder.id,
        line: placeholder.line,
        ...(placeholder.after ? { after: placeholder.after } : {}),
        ...(pending.spec.title ? { title: pending.spec.title } : {}),
        left: resolved.left,
        right: resolved.right,
      };
    } else {
      // A compare of a broken scenario is shown as broken, but the scenario's own problem is the one reported.
      if (!resolved.followsFrom) blockDiagnostics.push(...resolved.diagnostics);
      placeholder.diagnostics = resolved.diagnostics;
    }
  }
  return { blocks, blockDiagnostics };
}

function blockLang(node: Code, file: string, diagnostics: Diagnostic[]): BlockLang | undefined {
  const lang = node.lang ?? '';
  if ((BLOCK_LANGS as readonly string[]).includes(lang)) return lang as BlockLang;
  if (lang && !CODE_LANGS.has(lang.toLowerCase())) {
    const guess = didYouMean(lang, BLOCK_LANGS);
    if (guess) {
      diagnostics.push({
        file,
        line: node.position?.start.line ?? 1,
        col: (node.position?.start.column ?? 1) + 3,
        message: `unknown block '${lang}'`,
        hint: `did you mean '${guess}'? (otherwise it is shown as code)`,
      });
    }
  }
  return undefined;
}

function resolveCompare(
  spec: CompareSpec,
  blocks: Block[],
  ctx: BlockContext,
):
  | { ok: true; left: { label: string; scenario: Scenario }; right: { label: string; scenario: Scenario } }
  | { ok: false; diagnostics: Diagnostic[]; followsFrom?: number } {
  let base: Scenario | undefined;
  if (spec.ref) {
    const loaded = loadScenarioRef(spec.ref, { line: ctx.origin.line, col: 1 }, ctx);
    if (!loaded.ok) return loaded;
    base = loaded.scenario;
  } else {
    const scenarios = blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
    base = scenarios.find((s) => s.id === spec.scenario);
    const broken = blocks.find((b) => b.kind === 'invalid' && (b.lang === 'scenario' || b.lang === 'dashboard'));
    if (!base && broken && 'line' in broken) {
      return {
        ok: false,
        followsFrom: broken.line,
        diagnostics: [
          {
            file: ctx.origin.file,
            line: ctx.origin.line,
            col: 1,
            message: `this compare block cannot run: the scenario block on line ${broken.line} has a problem`,
            hint: `fix the scenario on line ${broken.line} first`,
          },
        ],
      };
    }
    if (!base) {
      const ids = scenarios.map((s) => s.id);
      const guess = didYouMean(spec.scenario ?? '', ids);
      return {
        ok: false,
        diagnostics: [
          {
            file: ctx.origin.file,
            line: ctx.origin.line,
            col: 1,
            message: `no scenario '${spec.scenario}' in this lesson`,
            hint: guess
              ? `did you mean '${guess}'?`
              : ids.length
                ? `scenarios here: ${ids.join(', ')}`
                : 'add a ```scenario block or use ref: scenarios/<name>.yaml',
          },
        ],
      };
    }
  }
  const apply = (side: CompareSide): { label: string; scenario: Scenario } => ({
    label: side.label,
    scenario: {
      ...base,
      ...(side.seed !== undefined ? { seed: side.seed } : {}),
      resource: {
        ...base.resource,
        ...(side.fencing !== undefined ? { fencing: side.fencing } : {}),
        ...(side.fenceCompare !== undefined ? { fenceCompare: side.fenceCompare } : {}),
      },
    },
  });
  return { ok: true, left: apply(spec.left), right: apply(spec.right) };
}

/** Block fences inside lists or quotes would silently render as code; say so instead. */
function nestedBlockFences(root: Root, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (node: Nodes, depth: number) => {
    if (node.type === 'code' && depth > 1 && (BLOCK_LANGS as readonly string[]).includes(node.lang ?? '')) {
      out.push({
        file,
        line: node.position?.start.line ?? 1,
        col: node.position?.start.column ?? 1,
        message: `a ${node.lang} block must not be nested in a list or quote`,
        hint: 'move the fence to the start of a line, outside the list',
      });
    }
    if ('children' in node) for (const child of node.children) visit(child, depth + 1);
  };
  visit(root, 0);
  return out;
}

/** A link to the site's route for a lesson; the slug must exist. */
export const ROUTE_LINK = /^#\/lesson\/([^/?#]+)/;

function lessonLinks(root: Root): LessonLink[] {
  const out: LessonLink[] = [];
  const visit = (node: Nodes) => {
    // A lesson file (`04-simplest-lock.md`) or the site's own route to a lesson (`#/lesson/slug`).
    if (node.type === 'link' && (/^(?!\w+:)(?!\/)[^#?]*\.md(?:#.*)?$/.test(node.url) || ROUTE_LINK.test(node.url))) {
      out.push({ target: node.url, line: node.position?.start.line ?? 1, col: node.position?.start.column ?? 1 });
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(root);
  return out;
}
