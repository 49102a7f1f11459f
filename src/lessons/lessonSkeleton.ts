import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseYamlSource } from '../scenario/text/yamlSource';
import { COURSE_CONFIG } from './courseFolder';
import { lessonIdentity } from './drafts';
import { splitFrontmatter } from './frontmatter';
import { LESSON_FILE } from './sources';

/** What `npm run new-lesson` was asked for: a title, and optionally a course id and a folder. */
export interface NewLessonRequest {
  title: string;
  course?: string;
  dir: string;
}

/** Either the file written, or why nothing was written: what went wrong, where, and how to fix it. */
export type NewLessonResult = { ok: true; file: string } | { ok: false; message: string };

/** The slug a title gives: lowercase ASCII letters and digits, words joined by single dashes. */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** The course ids a lesson in `dir` may join: its own courses.yaml, and for a course folder the built-in courses it includes. */
function knownCourses(dir: string, builtInDir: string): string[] {
  const ids = (file: string): string[] => {
    if (!existsSync(file)) return [];
    const value = parseYamlSource(readFileSync(file, 'utf8'), { file, line: 1 }).value;
    return Array.isArray(value)
      ? value.flatMap((c: { id?: unknown }) => (typeof c?.id === 'string' ? [c.id] : []))
      : [];
  };
  const own = ids(join(dir, 'courses.yaml'));
  if (!existsSync(join(dir, COURSE_CONFIG))) return own;
  const config = parseYamlSource(readFileSync(join(dir, COURSE_CONFIG), 'utf8'), { file: COURSE_CONFIG, line: 1 })
    .value as { include?: unknown } | undefined;
  const include = Array.isArray(config?.include) ? config.include : [];
  return [...own, ...ids(join(builtInDir, 'courses.yaml')).filter((id) => include.includes(id))];
}

/** The frontmatter `order` of a lesson, read leniently: a lesson being written may not parse yet. */
function lessonOrder(text: string): number | undefined {
  const split = splitFrontmatter(text, '');
  const value = split.ok
    ? (parseYamlSource(split.yaml, { file: '', line: 1 }).value as { order?: unknown } | undefined)
    : undefined;
  return typeof value?.order === 'number' ? value.order : undefined;
}

/**
 * Writes `NN-slug.md` into `request.dir` with the next free number and the next free order in the
 * course, or explains why it will not. Nothing is overwritten: an instructor's half-written lesson
 * is worth more than a skeleton.
 */
export function writeNewLesson(
  request: NewLessonRequest,
  cwd: string = process.cwd(),
  builtInDir: string = resolve(cwd, 'lessons'),
): NewLessonResult {
  const dir = resolve(cwd, request.dir);
  const shown = relative(cwd, dir).split('\\').join('/') || '.';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return {
      ok: false,
      message: `new-lesson: the folder '${request.dir}' does not exist (create it with mkdir -p ${request.dir} and a courses.yaml, see lessons/README.md "A course of your own", or pass --dir with an existing folder)`,
    };
  }
  const slug = slugFromTitle(request.title);
  if (!slug) {
    return {
      ok: false,
      message: `new-lesson: the title ${JSON.stringify(request.title)} gives an empty slug (a slug is made of the title's letters and digits: write a title with some, e.g. npm run new-lesson -- "Fencing tokens")`,
    };
  }
  const lessons = readdirSync(dir)
    .filter((f) => LESSON_FILE.test(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
  const texts = new Map(lessons.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const taken = lessons.find(
    (f) => f.replace(/^\d+-/, '') === `${slug}.md` || lessonIdentity(texts.get(f)!).slug === slug,
  );
  if (taken) {
    return {
      ok: false,
      message: `new-lesson: ${shown}/${taken} already exists with the slug '${slug}' (edit that lesson, or choose another title)`,
    };
  }
  const courses = knownCourses(dir, builtInDir);
  const last = lessons.at(-1);
  const course = request.course ?? (last ? lessonIdentity(texts.get(last)!).course : undefined) ?? courses[0];
  if (course === undefined || !courses.includes(course)) {
    const where = existsSync(join(dir, 'courses.yaml')) ? `${shown}/courses.yaml` : `${shown} (it has no courses.yaml)`;
    const known = courses.length
      ? `known courses: ${courses.join(', ')}`
      : `add one to ${shown}/courses.yaml: - { id: my-course, title: My course, order: 1, description: What it teaches. }`;
    return {
      ok: false,
      message: `new-lesson: ${course === undefined ? 'no course to put the lesson in' : `the course '${course}' is not in ${where}`} (pass --course <id>; ${known})`,
    };
  }
  const number = lessons.reduce((max, f) => Math.max(max, parseInt(f, 10)), 0) + 1;
  const orders = lessons
    .filter((f) => lessonIdentity(texts.get(f)!).course === course)
    .map((f) => lessonOrder(texts.get(f)!) ?? 0);
  const order = Math.max(0, ...orders) + 1;
  const name = `${String(number).padStart(2, '0')}-${slug}.md`;
  const path = join(dir, name);
  if (existsSync(path))
    return { ok: false, message: `new-lesson: ${shown}/${name} already exists (edit it, or choose another title)` };
  writeFileSync(path, lessonSkeleton({ title: request.title, slug, course, order }), { flag: 'wx' });
  return { ok: true, file: `${shown}/${name}` };
}

/**
 * A lesson that passes lessons:check as written: every required frontmatter key, a paragraph, a
 * scenario whose expect holds, and a quiz. Each part carries a comment saying what to change.
 */
export function lessonSkeleton(lesson: { title: string; slug: string; course: string; order: number }): string {
  return `---
# The address of the lesson: #/lesson/${lesson.slug}. Keep it once learners have saved progress.
slug: ${lesson.slug}
title: ${JSON.stringify(lesson.title)}
course: ${lesson.course}          # an id from courses.yaml
order: ${lesson.order}                  # position within the course
readTime: 5               # minutes, scenarios included
summary: One or two sentences for the course map. Change them to say what the learner will see break.
sources:                  # where the lesson's facts come from: replace with the pages you rely on
  - title: Distributed Locks with Redis
    url: https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
    by: Redis
---

## What happens

Replace this paragraph with the story of the lesson: who holds the lock, what they protect, and
what goes wrong. Name what the learner should watch for in the run below.

\`\`\`scenario
# Two clients take a lease with a fencing token, one after the other. Change the clients, add a
# script of faults (pause, crash, network), and make expect say what the run must show.
id: first-run
title: Two clients, one lease
seed: 1
clients:
  - { id: A, label: Client A, recipe: lease-with-token, ttl: 10s, work: 2s }
  - { id: B, label: Client B, recipe: lease-with-token, ttl: 10s, work: 2s, startAt: 1s }
resource: { id: store, label: Shared store }
controls: [pause, resume, crash]
expect: { invariant: all, outcome: holds }
\`\`\`

\`\`\`quiz
# A question about the run above. Keep the id once the lesson is published: answers are saved under it.
id: first-question
kind: single
question: B asks for the lock while A holds it. What does B do?
options:
  - id: waits
    text: It waits and takes the lock once A releases it.
    correct: true
    explanation: The lock is taken with NX, so B's first try is refused and it retries until A lets go.
  - id: shares
    text: It writes at the same time as A.
    explanation: Only one client at a time can hold a key set with NX.
\`\`\`
`;
}
