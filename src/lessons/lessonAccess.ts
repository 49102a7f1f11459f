import type { LessonEntry } from './lessonIndex';

type Entry = Pick<LessonEntry, 'frontmatter'>;

/** Shown in the course list, the pager and "Up next"; a `hidden` lesson is reached by links only. */
export function isListed(lesson: Entry): boolean {
  return lesson.frontmatter.hidden !== true;
}

/**
 * The prerequisites a learner must still finish before a `gated` lesson opens, in the order the
 * lesson lists them; empty when the lesson is open (not gated, or every prerequisite done).
 */
export function gateLeft(lesson: Entry, completed: Readonly<Record<string, string>>): string[] {
  if (lesson.frontmatter.gated !== true) return [];
  return lesson.frontmatter.prerequisites.filter((slug) => !completed[slug]);
}

/** A lesson's title by its slug, or the slug itself when the site has no such lesson. */
export function lessonTitle(lessons: readonly Entry[], slug: string): string {
  return lessons.find((l) => l.frontmatter.slug === slug)?.frontmatter.title ?? slug;
}
