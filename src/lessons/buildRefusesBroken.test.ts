import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { lessonsPlugin } from './vitePlugin';

/** A one-module site over a lessons folder holding one broken lesson. */
function siteWithBrokenLesson(): string {
  const root = mkdtempSync(join(tmpdir(), 'lockstep-broken-build-'));
  mkdirSync(join(root, 'lessons'));
  writeFileSync(join(root, 'lessons/courses.yaml'), '- { id: fixtures, title: Fixtures, order: 1, description: Lessons for tests. }\n');
  cpSync('src/lessons/fixtures/broken/block-typo.md', join(root, 'lessons/90-block-typo.md'));
  writeFileSync(join(root, 'index.html'), '<script type="module" src="./main.js"></script>');
  writeFileSync(join(root, 'main.js'), "import { lessons } from 'virtual:lessons';\nconsole.log(lessons.length);\n");
  return root;
}

async function buildSite(root: string): Promise<void> {
  await build({ configFile: false, root, logLevel: 'silent', plugins: [lessonsPlugin()], build: { outDir: join(root, 'dist'), emptyOutDir: true } });
}

describe('npm run build', () => {
  const root = siteWithBrokenLesson();
  afterAll(() => {
    delete process.env.LOCKSTEP_DRAFTS;
    rmSync(root, { recursive: true, force: true });
  });

  it('stops on a lesson problem, naming the file, line and column, and how to go on', async () => {
    const failed = await buildSite(root).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/lesson problem\(s\) stop the build:\n.*lessons\/90-block-typo\.md:\d+:\d+: /);
    expect(failed).toContain('LOCKSTEP_DRAFTS=1');
  }, 120_000);

  it('builds a draft when the author asks for one', async () => {
    process.env.LOCKSTEP_DRAFTS = '1';
    await expect(buildSite(root)).resolves.toBeUndefined();
  }, 120_000);
});
