import type { Nodes } from 'mdast';
import { didYouMean, type Diagnostic } from '../scenario/diagnostic';
import type { LuaCompiler } from '../scenario/text/luaSyntax';
import { parseCourses } from './courses';
import { parseLesson, ROUTE_LINK, type ParseLessonResult } from './parse';
import type { Catalog, Course, Lesson } from './types';

/** The raw files a catalog is built from; paths are as they should appear in diagnostics. */
export interface CatalogSources {
  /** lessons/courses.yaml (empty when the file does not exist; a test build may add a second). */
  courses: { file: string; text: string }[];
  lessons: { file: string; text: string }[];
  /** Reads a path relative to the lessons folder (sidecar scenarios). */
  readRef: (relPath: string) => string | undefined;
  /** Markdown files in the folder that are not named like lessons (README.md aside): reported, never shown. */
  strays?: string[];
}

/**
 * Parses every lesson and checks what only the whole set can tell: unknown courses, duplicate
 * slugs (naming both files), prerequisites and links to lessons that do not exist. Links to
 * lesson files become `#/lesson/<slug>` routes. Lessons whose frontmatter is unusable are left
 * out; their diagnostics stay, and their blocks are kept as `unlisted` for lessons:check.
 */
export function buildCatalog(sources: CatalogSources, options: { compileLua?: LuaCompiler } = {}): Catalog {
  const diagnostics: Diagnostic[] = [];
  let courses: Course[] = [];
  for (const file of sources.courses) {
    const parsed = parseCourses(file.text, file.file);
    courses = [...courses, ...parsed.courses].sort((a, b) => a.order - b.order);
    diagnostics.push(...parsed.diagnostics);
  }
  if (!sources.courses.length && sources.lessons.length) {
    diagnostics.push({
      file: 'lessons/courses.yaml',
      line: 1,
      col: 1,
      message: 'lessons/courses.yaml is missing',
      hint: 'list each course with id, title, order and description',
    });
  }

  for (const file of sources.strays ?? []) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const slug =
      name
        .replace(/\.md$/i, '')
        .toLowerCase()
        .replace(/^\d+[-_ ]*/, '')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'my-lesson';
    diagnostics.push({
      file,
      line: 1,
      col: 1,
      message: `'${name}' is not a lesson, so the site does not show it: lesson files are named NN-slug.md`,
      hint: `rename it like 11-${slug}.md, with the number giving its place, or move it out of the lessons folder`,
    });
  }

  const parsed = sources.lessons.map((l) => parseLesson(l.text, l.file, { readRef: sources.readRef, ...options }));
  for (const p of parsed) diagnostics.push(...p.diagnostics);
  const usable = parsed.filter((p): p is ParseLessonResult & { lesson: Lesson } => p.lesson !== null);

  diagnostics.push(...crossLessonProblems(usable, courses));
  rewriteLessonLinks(usable, diagnostics);

  const courseOrder = new Map(courses.map((c) => [c.id, c.order]));
  const lessons = usable
    .map((p) => p.lesson)
    .sort(
      (a, b) =>
        (courseOrder.get(a.frontmatter.course) ?? Infinity) - (courseOrder.get(b.frontmatter.course) ?? Infinity) ||
        a.frontmatter.order - b.frontmatter.order ||
        a.file.localeCompare(b.file),
    );
  diagnostics.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  const unlisted = sources.lessons.flatMap((l, i) =>
    parsed[i]!.lesson === null && parsed[i]!.blocks.length ? [{ file: l.file, blocks: parsed[i]!.blocks }] : [],
  );
  return { courses, lessons, diagnostics, ...(unlisted.length ? { unlisted } : {}) };
}

/**
 * What only the whole set can tell about one lesson checked among a site's lessons (the
 * instructor preview): duplicate slugs and hijacked former slugs, unknown courses, taken
 * orders, missing prerequisites and links to lessons the site does not have. The lesson
 * replaces a site lesson of the same file, as `lessons:check <file>` checks a file in its folder.
 * Its own links become lesson routes, as in the build.
 */
export function checkAmong(
  result: ParseLessonResult & { lesson: Lesson },
  site: readonly Lesson[],
  courses: Course[],
): Diagnostic[] {
  const others = site
    .filter((l) => l.file !== result.lesson.file)
    .map((lesson) => ({
      lesson,
      blocks: lesson.blocks,
      diagnostics: [],
      links: [],
      locate: () => ({ line: 1, col: 1 }),
    }));
  const all = [...others, result];
  const diagnostics = crossLessonProblems(all, courses).filter((d) => d.file === result.lesson.file);
  rewriteLessonLinks(all, diagnostics, [result]);
  return diagnostics;
}

function crossLessonProblems(results: (ParseLessonResult & { lesson: Lesson })[], courses: Course[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const courseIds = courses.map((c) => c.id);
  const bySlug = new Map<string, { file: string; line: number; col: number }>();
  const orders = new Map<string, string>();
  for (const r of results) {
    const { file, frontmatter: fm } = r.lesson;
    const at = (path: (string | number)[]) => ({ file, ...r.locate(path) });
    for (const [slug, path] of [
      [fm.slug, ['slug']],
      ...fm.formerSlugs.map((s, i) => [s, ['formerSlugs', i]] as const),
    ] as const) {
      const first = bySlug.get(slug);
      if (first)
        out.push({
          ...at([...path]),
          message: `duplicate slug '${slug}': ${first.file}:${first.line} uses it too`,
          hint: 'every lesson needs its own slug (formerSlugs count too)',
        });
      else bySlug.set(slug, at([...path]));
    }
    if (courses.length && !courseIds.includes(fm.course)) {
      const guess = didYouMean(fm.course, courseIds);
      out.push({
        ...at(['course']),
        message: `unknown course '${fm.course}'`,
        hint: guess ? `did you mean '${guess}'?` : `courses in lessons/courses.yaml: ${courseIds.join(', ')}`,
      });
    }
    const orderKey = `${fm.course}#${fm.order}`;
    const sameOrder = orders.get(orderKey);
    if (sameOrder)
      out.push({
        ...at(['order']),
        message: `order ${fm.order} is already used in course '${fm.course}' by ${sameOrder}`,
        hint: 'give each lesson of a course its own order',
      });
    else orders.set(orderKey, file);
  }
  const slugs = results.map((r) => r.lesson.frontmatter.slug);
  for (const r of results) {
    const fm = r.lesson.frontmatter;
    fm.prerequisites.forEach((pre, i) => {
      if (slugs.includes(pre)) return;
      const guess = didYouMean(pre, slugs);
      out.push({
        file: r.lesson.file,
        ...r.locate(['prerequisites', i]),
        message: `prerequisite '${pre}' is not a lesson`,
        hint: guess ? `did you mean '${guess}'?` : 'use the slug of an existing lesson',
      });
    });
    if (fm.gated && !fm.prerequisites.length) {
      out.push({
        file: r.lesson.file,
        ...r.locate(['gated']),
        message: 'a gated lesson needs prerequisites: it opens once they are finished',
        hint: "list them under 'prerequisites:', or remove 'gated: true'",
      });
    }
  }
  return [...out, ...prerequisiteCircles(results)];
}

/**
 * Prerequisites that lead back to the lesson itself (a → b → a): no lesson of the circle can
 * be read first, and a gated one would never open. Each circle is reported once, at the
 * prerequisite that starts it in the first of its lessons in catalog order.
 */
function prerequisiteCircles(results: (ParseLessonResult & { lesson: Lesson })[]): Diagnostic[] {
  const prerequisitesOf = new Map(results.map((r) => [r.lesson.frontmatter.slug, r.lesson.frontmatter.prerequisites]));
  const reported = new Set<string>();
  const out: Diagnostic[] = [];
  for (const r of results) {
    const start = r.lesson.frontmatter.slug;
    r.lesson.frontmatter.prerequisites.forEach((first, i) => {
      const way = shortestWay(first, start, prerequisitesOf);
      const key = way && [...way].sort().join(' ');
      if (!way || reported.has(key!)) return;
      reported.add(key!);
      out.push({
        file: r.lesson.file,
        ...r.locate(['prerequisites', i]),
        message: `prerequisites go round in a circle: ${[start, ...way].join(' → ')}`,
        hint: 'remove one of them: no lesson in a circle can be read first, and a gated one never opens',
      });
    });
  }
  return out;
}

/** The shortest chain of prerequisites from one lesson to another, both included; undefined when there is none. */
function shortestWay(from: string, to: string, prerequisitesOf: Map<string, string[]>): string[] | undefined {
  const cameFrom = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  for (let k = 0; k < queue.length; k++) {
    const at = queue[k]!;
    if (at === to) {
      const way: string[] = [];
      for (let step: string | null = at; step !== null; step = cameFrom.get(step)!) way.unshift(step);
      return way;
    }
    for (const next of prerequisitesOf.get(at) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Turns `[text](04-simplest-lock.md)` into a route to that lesson, or reports the missing file. */
function rewriteLessonLinks(
  results: (ParseLessonResult & { lesson: Lesson })[],
  diagnostics: Diagnostic[],
  targets = results,
): void {
  const slugByFile = new Map(results.map((r) => [normalise(r.lesson.file), r.lesson.frontmatter.slug]));
  for (const r of targets) {
    const dir = r.lesson.file.includes('/') ? r.lesson.file.slice(0, r.lesson.file.lastIndexOf('/') + 1) : '';
    const slugs = new Set(slugByFile.values());
    const resolve = (target: string) => {
      const route = ROUTE_LINK.exec(target);
      if (route) return slugs.has(route[1]!) ? route[1] : undefined;
      return slugByFile.get(normalise(dir + target.replace(/#.*$/, '')));
    };
    for (const link of r.links) {
      if (resolve(link.target)) continue;
      const route = ROUTE_LINK.exec(link.target);
      const guess = route
        ? didYouMean(route[1]!, [...slugs])
        : didYouMean(
            link.target,
            [...slugByFile.keys()].map((f) => f.slice(f.lastIndexOf('/') + 1)),
          );
      diagnostics.push({
        file: r.lesson.file,
        line: link.line,
        col: link.col,
        message: `link to a lesson that does not exist: ${link.target}`,
        hint: guess ? `did you mean '${guess}'?` : 'link to a lessons/NN-slug.md file',
      });
    }
    for (const block of r.lesson.blocks) {
      if (block.kind !== 'prose') continue;
      const visit = (node: Nodes) => {
        if (node.type === 'link') {
          const slug =
            /\.md(?:#.*)?$/.test(node.url) && !/^\w+:/.test(node.url) && !ROUTE_LINK.test(node.url)
              ? resolve(node.url)
              : undefined;
          if (slug) node.url = `#/lesson/${slug}`;
        }
        if ('children' in node) for (const child of node.children) visit(child);
      };
      for (const node of block.nodes) visit(node);
    }
  }
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
