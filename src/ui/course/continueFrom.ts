import { gateLeft, isListed } from '../../lessons/lessonAccess';
import type { CatalogIndex, LessonEntry } from '../../lessons/lessonIndex';

export interface NextLesson {
  lesson: LessonEntry;
  /** 1-based place in its course. */
  position: number;
  of: number;
  courseTitle: string;
  /** True when this is the lesson the learner had open; false when it is the next unfinished one. */
  resumed: boolean;
}

/**
 * Where a returning learner should go: the lesson they opened last if it is not done yet, else
 * the first unfinished lesson of its course, in order (a lesson skipped earlier comes before one
 * after the last finished), else the first unfinished lesson of any course, in course order.
 * Hidden lessons and those whose gate is still closed are never offered. Null for a first visit,
 * or when every lesson is done.
 */
export function continueFrom(
  catalog: Pick<CatalogIndex, 'courses' | 'lessons'>,
  completed: Record<string, string>,
  lastLesson: string | null,
): NextLesson | null {
  if (lastLesson === null) return null;
  const courseOrder = new Map(catalog.courses.map((c) => [c.id, c.order]));
  const ordered = [...catalog.lessons].sort(
    (a, b) =>
      (courseOrder.get(a.frontmatter.course) ?? 0) - (courseOrder.get(b.frontmatter.course) ?? 0) ||
      a.frontmatter.order - b.frontmatter.order,
  );
  const last = ordered.find((l) => l.frontmatter.slug === lastLesson || l.frontmatter.formerSlugs.includes(lastLesson));
  if (last === undefined) return null;
  // A hidden lesson is not offered, nor one whose gate is still closed: the course goes on elsewhere.
  const unfinished = ordered.filter(
    (l) => !completed[l.frontmatter.slug] && isListed(l) && gateLeft(l, completed).length === 0,
  );
  const found =
    unfinished.find((l) => l === last) ??
    unfinished.find((l) => l.frontmatter.course === last.frontmatter.course) ??
    unfinished[0];
  if (found === undefined) return null;
  const siblings = ordered.filter((l) => l.frontmatter.course === found.frontmatter.course && isListed(l));
  return {
    lesson: found,
    position: siblings.indexOf(found) + 1,
    of: siblings.length,
    courseTitle: catalog.courses.find((c) => c.id === found.frontmatter.course)?.title ?? found.frontmatter.course,
    resumed: found === last,
  };
}
