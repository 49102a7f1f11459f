import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { didYouMean, type Diagnostic } from '../scenario/diagnostic';
import { MAX_YAML_CHARS } from '../scenario/text/inputBounds';
import { validateYaml } from '../scenario/text/schemaIssues';
import { parseYamlSource } from '../scenario/text/yamlSource';
import { readBounded } from './boundedRead';
import type { CatalogSources } from './catalog';
import { lessonIdentity } from './drafts';
import { mergeSources, readLessonSources } from './sources';
import type { Catalog } from './types';

/** The file that makes a folder an instructor's course: `course.yaml`. */
export const COURSE_CONFIG = 'course.yaml';

/** An instructor's course.yaml: the site's title and which built-in courses and lessons it includes. */
export const courseConfigSchema = z.strictObject({
  /** The site's title, shown in the browser tab and on the course map. */
  title: z.string().min(1),
  /**
   * Built-in courses (by id) or single built-in lessons (by slug), in the order the course map
   * lists them. The folder's own lessons are always included; leave this out to include none.
   */
  include: z.array(z.string().min(1)).default([]),
});

/** What a course folder builds from: its own lessons plus the built-in ones it includes. */
export interface CourseFolderSources {
  title: string | undefined;
  sources: CatalogSources;
  /** The course order `include` asks for, by course id (own courses first). */
  courseOrder: string[];
  /** Built-in lessons left out, so a link to one can say how to include it. */
  excluded: { slug: string; file: string }[];
  diagnostics: Diagnostic[];
}

/** True when `dir` holds a course.yaml, i.e. is an instructor's course rather than a plain lessons folder. */
export function isCourseFolder(dir: string): boolean {
  return existsSync(join(dir, COURSE_CONFIG));
}

/**
 * Reads an instructor's course folder (Node only): its course.yaml, its own lessons and
 * courses.yaml, and the built-in lessons `include` names from `builtInDir` (this repository's
 * lessons/). Built-in lessons it does not name are left out before the catalog is built, so a
 * link or prerequisite pointing at one is reported like a link to a lesson that does not exist.
 */
export function readCourseFolder(dir: string, builtInDir: string, cwd: string = process.cwd()): CourseFolderSources {
  const configPath = join(resolve(cwd, dir), COURSE_CONFIG);
  const file = relative(cwd, configPath).split('\\').join('/');
  const origin = { file, line: 1 };
  const source = parseYamlSource(readBounded(configPath, MAX_YAML_CHARS), origin);
  const parsed = validateYaml(source, courseConfigSchema, origin);
  const own = readLessonSources(dir, cwd);
  if (!parsed.ok)
    return { title: undefined, sources: own, courseOrder: [], excluded: [], diagnostics: parsed.diagnostics };

  const builtIn = readLessonSources(builtInDir, cwd);
  const known = builtIn.lessons.map((l) => ({ file: l.file, ...lessonIdentity(l.text) }));
  const courseIds = [...new Set(known.map((l) => l.course).filter((c): c is string => c !== undefined))];
  const slugs = known.map((l) => l.slug).filter((s): s is string => s !== undefined);
  const diagnostics: Diagnostic[] = [];
  parsed.value.include.forEach((name, i) => {
    if (courseIds.includes(name) || slugs.includes(name)) return;
    const guess = didYouMean(name, [...courseIds, ...slugs]);
    diagnostics.push({
      file,
      ...source.locate(['include', i]),
      message: `'${name}' is neither a built-in course nor a built-in lesson`,
      hint: guess ? `did you mean '${guess}'?` : `built-in courses: ${courseIds.join(', ')}`,
    });
  });
  const wanted = new Set(parsed.value.include);
  const included = known.filter(
    (l) => (l.course !== undefined && wanted.has(l.course)) || (l.slug !== undefined && wanted.has(l.slug)),
  );
  const picked: CatalogSources = {
    ...builtIn,
    strays: [],
    lessons: builtIn.lessons.filter((l) => included.some((i) => i.file === l.file)),
  };
  const courseOrder = parsed.value.include.flatMap((name) =>
    courseIds.includes(name) ? [name] : known.filter((l) => l.slug === name).map((l) => l.course ?? ''),
  );
  const excluded = known.flatMap((l) =>
    l.slug !== undefined && !included.includes(l)
      ? [{ slug: l.slug, file: l.file.slice(l.file.lastIndexOf('/') + 1) }]
      : [],
  );
  return {
    title: parsed.value.title,
    sources: picked.lessons.length ? mergeSources(own, picked) : own,
    courseOrder,
    excluded,
    diagnostics,
  };
}

/**
 * The catalog a course folder's site shows: courses without an included lesson are dropped, and
 * the rest are ordered as `include` lists them (the folder's own courses first, in their order).
 */
export function courseCatalog(catalog: Catalog, folder: CourseFolderSources): Catalog {
  const used = new Set(catalog.lessons.map((l) => l.frontmatter.course));
  const rank = (id: string) => {
    const at = folder.courseOrder.indexOf(id);
    return at < 0 ? -1 : at;
  };
  const courses = catalog.courses
    .filter((c) => used.has(c.id))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.order - b.order)
    .map((c, i) => ({ ...c, order: i + 1 }));
  const order = new Map(courses.map((c) => [c.id, c.order]));
  const lessons = [...catalog.lessons].sort(
    (a, b) =>
      (order.get(a.frontmatter.course) ?? Infinity) - (order.get(b.frontmatter.course) ?? Infinity) ||
      a.frontmatter.order - b.frontmatter.order,
  );
  return {
    ...catalog,
    courses,
    lessons,
    diagnostics: [...folder.diagnostics, ...catalog.diagnostics.map((d) => withIncludeHint(d, folder.excluded))],
  };
}

/** A link or prerequisite naming a built-in lesson the course left out: say how to include it. */
function withIncludeHint(d: Diagnostic, excluded: CourseFolderSources['excluded']): Diagnostic {
  const target =
    /^prerequisite '([^']+)' is not a lesson$/.exec(d.message)?.[1] ??
    /^link to a lesson that does not exist: (?:#\/lesson\/)?([^#?]+)/.exec(d.message)?.[1];
  const lesson =
    target === undefined
      ? undefined
      : excluded.find((l) => l.slug === target || l.file === target.slice(target.lastIndexOf('/') + 1));
  if (!lesson) return d;
  return {
    ...d,
    hint: `'${lesson.slug}' is a built-in lesson this course leaves out: add it (or its course) to include in course.yaml, or remove the ${d.message.startsWith('prerequisite') ? 'prerequisite' : 'link'}`,
  };
}
