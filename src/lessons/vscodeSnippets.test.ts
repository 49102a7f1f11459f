import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../scenario/diagnostic';
import { runScenarioTrace } from '../scenario/running/run';
import { BLOCK_LANGS } from './blockParsers';
import { buildCatalog } from './catalog';
import { checkLessons } from './checkLessons';
import { lessonSkeleton } from './lessonSkeleton';
import { readLessonSources } from './sources';

interface Snippet {
  scope: string;
  prefix: string;
  body: string[];
}

const snippets = Object.entries(
  JSON.parse(readFileSync('.vscode/lessons.code-snippets', 'utf8')) as Record<string, Snippet>,
);

/** A snippet's text as VS Code inserts it when the author accepts every default: `${1:x}` → x, `${1|a,b|}` → a, `$0` → nothing. */
function expandSnippet(body: string[]): string {
  return body
    .join('\n')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1')
    .replace(/\$\d+/g, '');
}

/** Where a scenario part goes in the skeleton's scenario: a client joins `clients`, a fault step makes a `script`. */
function withPart(lesson: string, prefix: string, part: string): string {
  const indented = part
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  if (prefix.startsWith('ls-client')) return lesson.replace(/(clients:\n(?: {2}- .*\n)+)/, `$1${indented}\n`);
  if (prefix.startsWith('ls-fault')) return lesson.replace('controls:', `script:\n${indented}\ncontrols:`);
  throw new Error(`snippet ${prefix} is neither a lesson, a block nor a known scenario part`);
}

/** The lesson a snippet is tried in: a whole lesson as it is, anything else inside new-lesson's skeleton (which has scenario `first-run` and quiz `first-question`). */
function lessonFor(snippet: Snippet, order: number): string {
  const text = expandSnippet(snippet.body);
  if (text.startsWith('---')) return text;
  const host = lessonSkeleton({
    title: `Snippet ${snippet.prefix}`,
    slug: `snippet-${order}`,
    course: 'redis-locks',
    order,
  });
  return text.includes('```') ? `${host}\n${text}\n` : withPart(host, snippet.prefix, text);
}

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

describe('.vscode/lessons.code-snippets', () => {
  it('are scoped to Markdown, with a distinct prefix each', () => {
    expect(snippets.length).toBeGreaterThan(0);
    for (const [name, s] of snippets) expect(s.scope, name).toBe('markdown');
    expect(new Set(snippets.map(([, s]) => s.prefix)).size).toBe(snippets.length);
  });

  it('have a snippet for every block kind and for a whole lesson', () => {
    const langs = snippets.map(
      ([, s]) => /^```([\w-]+)/.exec(s.body[0] ?? '')?.[1] ?? /\n```([\w-]+)\n/.exec(s.body.join('\n'))?.[1],
    );
    expect(BLOCK_LANGS.filter((lang) => !langs.includes(lang))).toEqual([]);
    expect(snippets.some(([, s]) => s.body[0] === '---')).toBe(true);
  });

  it('each, with its defaults, parses as the site reads it, and every block and lesson passes lessons:check', async () => {
    // Blocks and whole lessons in one folder, scenario parts in another: a fault is meant to break
    // the skeleton's quiet run, so parts are held to the parser and the site's checks only.
    const root = mkdtempSync(join(tmpdir(), 'lockstep-snippets-'));
    roots.push(root);
    const [blocks, parts] = [join(root, 'blocks'), join(root, 'parts')];
    for (const dir of [blocks, parts]) {
      cpSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
      cpSync('lessons/scenarios', join(dir, 'scenarios'), { recursive: true });
    }
    const files = snippets.map(([name, s], i) => {
      const text = expandSnippet(s.body);
      const dir = text.includes('```') ? blocks : parts;
      const file = `${String(i + 1).padStart(2, '0')}-snippet.md`;
      writeFileSync(join(dir, file), lessonFor(s, i + 1));
      return { name, lang: /```([\w-]+)\n/.exec(text)?.[1], file: `${dir === blocks ? 'blocks' : 'parts'}/${file}` };
    });
    // What the site reads: every snippet parses, and its lesson has a block of its kind.
    for (const dir of ['blocks', 'parts']) {
      const catalog = buildCatalog(readLessonSources(dir, root));
      expect(catalog.diagnostics.map(formatDiagnostic)).toEqual([]);
      for (const { name, lang, file } of files.filter((f) => f.file.startsWith(dir))) {
        const lesson = catalog.lessons.find((l) => l.file === file);
        expect(lesson, name).toBeDefined();
        // An after block gates prose rather than being one; a dashboard is a scenario drawn with metrics.
        if (lang && lang !== 'after')
          expect(
            lesson!.blocks.map((b) => b.kind),
            name,
          ).toContain(lang === 'dashboard' ? 'scenario' : lang);
      }
    }
    // What lessons:check adds for blocks: every scenario's expect, every claim and the workbench's fix hold.
    const report = await checkLessons(['blocks'], runScenarioTrace, root);
    expect(report.lines.slice(0, -1)).toEqual([]);
    expect(report.exitCode).toBe(0);
  }, 240_000);
});
