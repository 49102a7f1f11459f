import type { Diagnostic } from '../scenario/diagnostic';
import type { Frontmatter } from './frontmatter';
import type { Catalog, Course, Lesson } from './types';

/**
 * What the site knows about a lesson before its body is loaded: enough to list it, route to it,
 * and tell how far a learner is through it. The body (prose, quizzes, scenarios) is a separate
 * chunk, fetched when the lesson is opened.
 */
export interface LessonEntry {
  /** Path as given to the parser, e.g. `lessons/05-paused-barista.md`. */
  file: string;
  /** Without its sources, which the lesson's body carries (the first page need not load them). */
  frontmatter: Omit<Frontmatter, 'sources'>;
  /** Ids of the lesson's quiz blocks, in reading order: each must be answered to finish it. */
  quizIds: string[];
  /** Id of the first scenario or compare block, whose run counts towards finishing; null without one. */
  mainScenario: string | null;
}

/** The catalog without lesson bodies: what the first page loads (the `virtual:lessons` module). */
export interface CatalogIndex {
  courses: Course[];
  /** In catalog order: by course order, then lesson order. */
  lessons: LessonEntry[];
  diagnostics: Diagnostic[];
}

/** A lesson's index entry, computed from its parsed body (at build time). */
export function lessonEntry(lesson: Lesson): LessonEntry {
  const main = lesson.blocks.find((b) => b.kind === 'scenario' || b.kind === 'compare');
  const { sources: _sources, ...frontmatter } = lesson.frontmatter;
  return {
    file: lesson.file,
    frontmatter,
    quizIds: lesson.blocks.flatMap((b) => (b.kind === 'quiz' ? [b.id] : [])),
    mainScenario: main && 'id' in main ? main.id : null,
  };
}

/** The index of a whole catalog. */
export function catalogIndex(catalog: Catalog): CatalogIndex {
  return { courses: catalog.courses, lessons: catalog.lessons.map(lessonEntry), diagnostics: catalog.diagnostics };
}
