import type { Diagnostic } from '../scenario/diagnostic';
import type { Lesson } from './types';

/**
 * Every lesson names where its facts come from (frontmatter `sources:`, shown to learners as
 * "Sources and further reading"). A lesson without any is reported at the top of its
 * frontmatter, where the list goes. Each entry's shape is checked by the frontmatter schema.
 */
export function checkSources(lessons: readonly Lesson[]): Diagnostic[] {
  return lessons
    .filter((lesson) => lesson.frontmatter.sources.length === 0)
    .map((lesson) => ({
      file: lesson.file,
      line: 2,
      col: 1,
      message: 'the lesson names no sources',
      hint: 'add sources: [{ title, url, by }] to the frontmatter: the Redis docs page, the library or article its facts come from',
    }));
}
