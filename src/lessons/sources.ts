import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MAX_LESSON_CHARS, MAX_YAML_CHARS } from '../scenario/text/inputBounds';
import { readBounded } from './boundedRead';
import type { CatalogSources } from './catalog';

/** Lesson files are `NN-slug.md`; README.md and other Markdown in the folder are not lessons. */
export const LESSON_FILE = /^\d+-[^/]+\.md$/;

/** Markdown that documents the folder rather than teaching: README.md, REFERENCE.md (the field reference), CONTRIBUTING.md… */
const NOT_LESSONS = /^(readme|reference|contributing|changelog|license)\.md$/i;

/**
 * Reads a lessons folder from disk (Node only): its courses.yaml, every `NN-*.md` lesson, and a
 * reader for sidecar scenarios; `alsoFiles` adds lesson files named explicitly. Paths in diagnostics are relative to `cwd`, like `lessons/05-x.md`.
 */
export function readLessonSources(
  dir: string,
  cwd: string = process.cwd(),
  alsoFiles: readonly string[] = [],
): CatalogSources {
  const abs = resolve(cwd, dir);
  const show = (file: string) => relative(cwd, file).split('\\').join('/');
  const coursesPath = join(abs, 'courses.yaml');
  // Files named explicitly (e.g. on the lessons:check command line) count even if not NN-named.
  const named = alsoFiles.map((f) => relative(abs, resolve(cwd, f)));
  const entries = existsSync(abs) ? readdirSync(abs) : [];
  const lessonFiles = [...new Set([...entries.filter((f) => LESSON_FILE.test(f)), ...named])].sort();
  // Markdown an author put here as a lesson but named otherwise would silently never appear.
  const strays = entries.filter((f) => /\.md$/i.test(f) && !lessonFiles.includes(f) && !NOT_LESSONS.test(f)).sort();
  return {
    strays: strays.map((f) => show(join(abs, f))),
    courses: existsSync(coursesPath)
      ? [{ file: show(coursesPath), text: readBounded(coursesPath, MAX_YAML_CHARS) }]
      : [],
    lessons: lessonFiles.map((f) => ({ file: show(join(abs, f)), text: readBounded(join(abs, f), MAX_LESSON_CHARS) })),
    readRef: (rel) => {
      const path = resolve(abs, rel);
      // A ref may only reach files inside the lessons folder.
      if (!path.startsWith(abs) || !existsSync(path)) return undefined;
      return readBounded(path, MAX_YAML_CHARS);
    },
  };
}

/** Merges several folders' sources (e.g. real lessons plus a test-only fixtures course). */
export function mergeSources(a: CatalogSources, b: CatalogSources): CatalogSources {
  return {
    courses: [...a.courses, ...b.courses],
    lessons: [...a.lessons, ...b.lessons],
    strays: [...(a.strays ?? []), ...(b.strays ?? [])],
    readRef: (rel) => a.readRef(rel) ?? b.readRef(rel),
  };
}
