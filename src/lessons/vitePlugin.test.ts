import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Nodes } from 'mdast';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from './catalog';
import { readLessonSources } from './sources';
import type { Lesson } from './types';

/** A run of plain words from the lesson's prose, long enough to be its own and plain enough to survive minifying. */
function phraseOf(lesson: Lesson): string | undefined {
  let found: string | undefined;
  const visit = (node: Nodes) => {
    if (found) return;
    if (node.type === 'text') found = /[A-Za-z][A-Za-z ,.]{38,}[a-z]/.exec(node.value)?.[0];
    if ('children' in node) node.children.forEach(visit);
  };
  for (const block of lesson.blocks) if (block.kind === 'prose') block.nodes.forEach(visit);
  return found;
}

// The site's own build (vite.config.ts, so every plugin and every import of the app counts),
// into a temporary folder.
describe('the built site', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'lockstep-lesson-chunks-'));
  const lessons = buildCatalog(readLessonSources('lessons')).lessons;
  let initialJs = '';
  let assets: string[] = [];

  beforeAll(async () => {
    // Vitest sets NODE_ENV=test, which would give a development build (React's dev bundle).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: 'vite.config.ts',
        mode: 'production',
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    // What the first page loads: the entry script and the chunks it preloads (as bench:ui counts them).
    const initial = [
      ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.?\/?([^"]+\.js)"/g),
    ].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    initialJs = initial.map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n');
    assets = readdirSync(join(outDir, 'assets'));
  }, 180_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps every lesson body out of the first page, each in a chunk of its own', () => {
    expect(lessons.length).toBeGreaterThan(0);
    for (const lesson of lessons) {
      const slug = lesson.frontmatter.slug;
      const phrase = phraseOf(lesson);
      expect(phrase, `${lesson.file} has a sentence of plain prose`).toBeDefined();
      expect(
        initialJs.includes(phrase!),
        `the first page's JavaScript contains prose of ${lesson.file}: "${phrase}"`,
      ).toBe(false);
      const chunk = assets.find((a) => new RegExp(`^${slug}-[\\w-]{8}\\.js$`).test(a));
      expect(chunk, `a chunk for ${slug}`).toBeDefined();
      expect(readFileSync(join(outDir, 'assets', chunk!), 'utf8').includes(phrase!), `${chunk} holds "${phrase}"`).toBe(
        true,
      );
    }
  });

  it('still lists every lesson on the first page, and precaches every body for offline use', () => {
    const sw = readFileSync(join(outDir, 'sw.js'), 'utf8');
    for (const lesson of lessons) {
      expect(initialJs.includes(lesson.frontmatter.title), `the first page lists "${lesson.frontmatter.title}"`).toBe(
        true,
      );
      const chunk = assets.find((a) => a.startsWith(`${lesson.frontmatter.slug}-`) && a.endsWith('.js'));
      expect(sw, `sw.js precaches ${chunk}`).toContain(`assets/${chunk}`);
    }
  });
});
