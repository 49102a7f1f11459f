import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { lessonsPlugin } from './vitePlugin';

/** A one-module site over a lessons folder holding one broken lesson. */
function siteWithBrokenLesson(fixture = 'block-typo.md'): string {
  const root = mkdtempSync(join(tmpdir(), 'lockstep-broken-build-'));
  mkdirSync(join(root, 'lessons'));
  writeFileSync(
    join(root, 'lessons/courses.yaml'),
    '- { id: fixtures, title: Fixtures, order: 1, description: Lessons for tests. }\n',
  );
  cpSync(`src/lessons/fixtures/broken/${fixture}`, join(root, `lessons/90-${fixture}`));
  writeFileSync(join(root, 'index.html'), '<script type="module" src="./main.js"></script>');
  writeFileSync(join(root, 'main.js'), "import { lessons } from 'virtual:lessons';\nconsole.log(lessons.length);\n");
  return root;
}

async function buildSite(root: string): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [lessonsPlugin()],
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
  });
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

  it('stops on a Lua script that does not compile, at its line in the lesson', async () => {
    const lua = siteWithBrokenLesson('lua-typo.md');
    try {
      const failed = await buildSite(lua).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failed).toContain(
        "lessons/90-lua-typo.md:26:13: Lua syntax error (script line 3): 'end' expected (to close 'if' at line 1) near 'els' (did you mean 'else'?)",
      );
    } finally {
      rmSync(lua, { recursive: true, force: true });
    }
  }, 120_000);

  it('builds a draft when the author asks for one', async () => {
    process.env.LOCKSTEP_DRAFTS = '1';
    await expect(buildSite(root)).resolves.toBeUndefined();
  }, 120_000);
});
