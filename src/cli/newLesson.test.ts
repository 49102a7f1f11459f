import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLessons } from '../lessons/checkLessons';
import { writeNewLesson } from '../lessons/lessonSkeleton';
import { runScenarioTrace } from '../scenario/running/run';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A temp copy of a small course folder (two lessons and a courses.yaml), as an instructor's own would be. */
function courseCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'lockstep-new-lesson-'));
  roots.push(root);
  const dir = join(root, 'my-course');
  cpSync('src/lessons/fixtures/valid', dir, { recursive: true });
  return dir;
}

describe('npm run new-lesson', () => {
  it('writes the next numbered lesson, which passes the same check as lessons:check', async () => {
    const dir = courseCopy();
    const result = writeNewLesson({ title: "Fencing: the token's job", dir });
    expect(result.ok).toBe(true);
    expect(readdirSync(dir)).toContain('03-fencing-the-tokens-job.md');
    const text = readFileSync(join(dir, '03-fencing-the-tokens-job.md'), 'utf8');
    expect(text).toContain('slug: fencing-the-tokens-job');
    expect(text).toContain('title: "Fencing: the token\'s job"');
    const report = await checkLessons([dir], runScenarioTrace);
    expect(report.lines).toEqual(['lessons:check: 3 lessons, 3 scenario runs, no problems']);
    expect(report.exitCode).toBe(0);
  }, 60_000);

  it('refuses to write over a lesson with the same slug, naming the file', () => {
    const dir = courseCopy();
    expect(writeNewLesson({ title: 'Leases', dir }).ok).toBe(true);
    const again = writeNewLesson({ title: 'Leases!', dir });
    expect(again).toEqual({
      ok: false,
      message: expect.stringMatching(
        /my-course\/03-leases\.md already exists with the slug 'leases' \(edit that lesson, or choose another title\)$/,
      ),
    });
    expect(readdirSync(dir).filter((f) => f.endsWith('leases.md'))).toEqual(['03-leases.md']);
  });

  it('refuses a title with no letters or digits', () => {
    expect(writeNewLesson({ title: '?!', dir: courseCopy() })).toEqual({
      ok: false,
      message: expect.stringContaining('the title "?!" gives an empty slug'),
    });
  });

  it('refuses a course the folder does not have, listing those it has', () => {
    const result = writeNewLesson({ title: 'Leases', course: 'redlok', dir: courseCopy() });
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(
        /the course 'redlok' is not in .*my-course\/courses\.yaml \(pass --course <id>; known courses: /,
      ),
    });
  });

  it('refuses a folder that does not exist, saying how to make one', () => {
    const result = writeNewLesson({ title: 'Leases', dir: '../no-such-course' });
    expect(result).toEqual({
      ok: false,
      message: expect.stringContaining(
        "the folder '../no-such-course' does not exist (create it with mkdir -p ../no-such-course",
      ),
    });
  });
});
