import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLessons } from './checkLessons';
import type { ScenarioRunner } from './scenarioExpectations';
import { lessonsPlugin } from './vitePlugin';

const BUILT_IN = resolve('lessons');

function lesson(order: number, slug: string, body: string): string {
  return [
    '---',
    `slug: ${slug}`,
    `title: Week ${order}`,
    'course: week-six',
    `order: ${order}`,
    'readTime: 5',
    'summary: A lesson of my own.',
    'sources: [{ title: SET, url: "https://redis.io/docs/latest/commands/set/" }]',
    '---',
    '',
    `# Week ${order}`,
    '',
    body,
    '',
  ].join('\n');
}

/** An instructor's folder outside lessons/: two lessons of their own, a courses.yaml and a course.yaml. */
function courseFolder(config: string, secondBody = 'Back to [the first week](01-week-one.md).'): string {
  const root = mkdtempSync(join(tmpdir(), 'lockstep-course-'));
  const dir = join(root, 'my-course');
  mkdirSync(dir);
  writeFileSync(join(dir, 'course.yaml'), config);
  writeFileSync(
    join(dir, 'courses.yaml'),
    '- { id: week-six, title: Week six, order: 1, description: Locks for my class. }\n',
  );
  writeFileSync(join(dir, '01-week-one.md'), lesson(1, 'week-one', 'Read [week two](02-week-two.md) next.'));
  writeFileSync(join(dir, '02-week-two.md'), lesson(2, 'week-two', secondBody));
  writeFileSync(join(root, 'index.html'), '<script type="module" src="./main.js"></script>');
  writeFileSync(
    join(root, 'main.js'),
    "import { courses, lessons } from 'virtual:lessons';\nconsole.log(JSON.stringify({ courses, lessons }));\n",
  );
  return root;
}

/**
 * Builds the site as `LOCKSTEP_COURSE=my-course npm run build` would, and returns what its
 * catalog lists: course ids and lesson slugs in order, read from the built index chunk.
 */
async function buildCourse(root: string): Promise<{ courses: string[]; slugs: string[] }> {
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [lessonsPlugin({ dir: BUILT_IN, course: 'my-course' })],
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
  });
  const assets = join(root, 'dist/assets');
  const index = readdirSync(assets)
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .find((js) => js.includes('console.log(JSON.stringify'))!;
  const all = (re: RegExp) => [...index.matchAll(re)].map((m) => m[1]!);
  return { courses: all(/\bid:[`"']([a-z0-9-]+)[`"'],title:/g), slugs: all(/\bslug:[`"']([a-z0-9-]+)[`"']/g) };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (error: Error) => error.message,
  );

describe('a course folder outside lessons/', () => {
  const roots: string[] = [];
  const folder = (config: string, secondBody?: string) => {
    const root = courseFolder(config, secondBody);
    roots.push(root);
    return root;
  };
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  it('builds a site with only its own lessons and the built-in course it includes, in its order', async () => {
    const site = await buildCourse(folder('title: Distributed systems, week six\ninclude: [redlock, redis-locks]\n'));
    // Its own course first, then the ones it includes in its order; the courses it left out are not listed.
    expect(site.courses).toEqual(['week-six', 'redlock', 'redis-locks']);
    expect(site.slugs.slice(0, 3)).toEqual(['week-one', 'week-two', 'redlock-step-by-step']);
    expect(site.slugs).toContain('ground-rules');
    expect(site.slugs).not.toContain('basic-lease');
    expect(site.slugs).not.toContain('clinic-plain-del');
  }, 120_000);

  it('leaves a draft lesson out of the build', async () => {
    const root = folder('title: Week six\n');
    writeFileSync(
      join(root, 'my-course/03-week-three.md'),
      lesson(3, 'week-three', 'Not ready yet.').replace('---\n\n#', 'draft: true\n---\n\n#'),
    );
    const site = await buildCourse(root);
    expect(site.slugs).toEqual(['week-one', 'week-two']);
  }, 120_000);

  it('refuses a link to a built-in lesson it does not include, naming the line and what to change', async () => {
    const failed = await failure(
      buildCourse(folder('title: Week six\n', 'Compare with [fencing](#/lesson/fencing-tokens).')),
    );
    expect(failed).toMatch(
      /my-course\/02-week-two\.md:13:\d+: link to a lesson that does not exist: #\/lesson\/fencing-tokens \('fencing-tokens' is a built-in lesson this course leaves out: add it \(or its course\) to include in course\.yaml, or remove the link\)/,
    );
  }, 120_000);

  it('names an include that is neither a built-in course nor a lesson, with a guess', async () => {
    const failed = await failure(buildCourse(folder('title: Week six\ninclude: [redlok]\n')));
    expect(failed).toContain(
      "my-course/course.yaml:2:11: 'redlok' is neither a built-in course nor a built-in lesson (did you mean 'redlock'?)",
    );
  }, 120_000);

  it('is checked by lessons:check as it will be built', async () => {
    const root = folder('title: Week six\ninclude: [redlok]\n');
    const none: ScenarioRunner = async () => ({ verdicts: [] });
    const report = await checkLessons([join(root, 'my-course')], none, resolve('.'));
    expect(
      report.lines.some((l) =>
        l.endsWith(
          "course.yaml:2:11: 'redlok' is neither a built-in course nor a built-in lesson (did you mean 'redlock'?)",
        ),
      ),
    ).toBe(true);
    expect(report.exitCode).toBe(1);
  }, 120_000);
});
