import { describe, expect, it } from 'vitest';
import type { CatalogIndex, LessonEntry } from '../../lessons/lessonIndex';
import { continueFrom } from './continueFrom';

const lesson = (
  slug: string,
  course: string,
  order: number,
  formerSlugs: string[] = [],
  more: Partial<LessonEntry['frontmatter']> = {},
): LessonEntry => ({
  file: `lessons/${slug}.md`,
  frontmatter: { slug, title: slug, course, order, readTime: 5, summary: '', prerequisites: [], formerSlugs, ...more },
  quizIds: [],
  mainScenario: null,
});

const catalog: Pick<CatalogIndex, 'courses' | 'lessons'> = {
  courses: [
    { id: 'two', title: 'Course two', order: 2, description: '' },
    { id: 'one', title: 'Course one', order: 1, description: '' },
  ],
  lessons: [lesson('b', 'one', 2), lesson('a', 'one', 1, ['old-a']), lesson('c', 'two', 1)],
};

describe('continue where you left off', () => {
  it('says nothing on a first visit', () => {
    expect(continueFrom(catalog, {}, null)).toBeNull();
  });

  it('resumes the lesson opened last while it is unfinished, even under its former slug', () => {
    expect(continueFrom(catalog, {}, 'old-a')).toMatchObject({
      lesson: { frontmatter: { slug: 'a' } },
      position: 1,
      of: 2,
      resumed: true,
    });
  });

  it('moves on to the next unfinished lesson, across courses in course order', () => {
    const next = continueFrom(catalog, { a: 't', b: 't' }, 'a');
    expect(next).toMatchObject({
      lesson: { frontmatter: { slug: 'c' } },
      courseTitle: 'Course two',
      position: 1,
      of: 1,
      resumed: false,
    });
  });

  it('goes back to a lesson skipped earlier in the course before moving past the last one finished', () => {
    expect(continueFrom(catalog, { b: 't' }, 'b')).toMatchObject({
      lesson: { frontmatter: { slug: 'a' } },
      courseTitle: 'Course one',
      resumed: false,
    });
  });

  it('after the last course, offers the first unfinished lesson of an earlier one', () => {
    expect(continueFrom(catalog, { a: 't', c: 't' }, 'c')).toMatchObject({
      lesson: { frontmatter: { slug: 'b' } },
      courseTitle: 'Course one',
      position: 2,
      of: 2,
    });
  });

  it('offers nothing once every lesson is done', () => {
    expect(continueFrom(catalog, { a: 't', b: 't', c: 't' }, 'a')).toBeNull();
  });

  it('never offers a hidden lesson, nor one whose gate is still closed, and counts only listed lessons', () => {
    const withExtras: Pick<CatalogIndex, 'courses' | 'lessons'> = {
      courses: catalog.courses,
      lessons: [
        lesson('a', 'one', 1),
        lesson('extra', 'one', 2, [], { hidden: true }),
        lesson('exam', 'one', 3, [], { gated: true, prerequisites: ['b'] }),
        lesson('b', 'one', 4),
      ],
    };
    expect(continueFrom(withExtras, { a: 't' }, 'a')).toMatchObject({
      lesson: { frontmatter: { slug: 'b' } },
      position: 3,
      of: 3,
    });
    expect(continueFrom(withExtras, { a: 't', b: 't' }, 'b')).toMatchObject({
      lesson: { frontmatter: { slug: 'exam' } },
      position: 2,
      of: 3,
    });
    // Opened by its link and left unfinished, a hidden lesson gives way to the course's next one.
    expect(continueFrom(withExtras, {}, 'extra')).toMatchObject({
      lesson: { frontmatter: { slug: 'a' } },
      resumed: false,
    });
  });
});
