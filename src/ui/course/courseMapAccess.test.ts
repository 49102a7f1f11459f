import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CatalogIndex, LessonEntry } from '../../lessons/lessonIndex';
import { LessonGate } from '../lesson/LessonGate';
import { CourseMap, CourseSection } from './CourseMap';

const lesson = (
  slug: string,
  title: string,
  order: number,
  more: Partial<LessonEntry['frontmatter']> = {},
): LessonEntry => ({
  file: `lessons/0${order}-${slug}.md`,
  frontmatter: {
    slug,
    title,
    course: 'week',
    order,
    readTime: 5,
    summary: `About ${title}.`,
    prerequisites: [],
    formerSlugs: [],
    ...more,
  },
  quizIds: [],
  mainScenario: null,
});

const catalog: CatalogIndex = {
  courses: [{ id: 'week', title: 'Week six', order: 1, description: 'Locks for my class.' }],
  lessons: [
    lesson('basics', 'The basics', 1),
    lesson('bonus', 'A bonus round', 2, { hidden: true }),
    lesson('exam', 'The exam', 3, { gated: true, prerequisites: ['basics'] }),
  ],
  diagnostics: [],
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the course list with hidden and gated lessons', () => {
  const section = (completed: Record<string, string>) =>
    text(
      renderToStaticMarkup(
        createElement(CourseSection, {
          course: catalog.courses[0]!,
          lessons: catalog.lessons.filter((l) => !l.frontmatter.hidden),
          all: catalog.lessons,
          completed,
        }),
      ),
    );

  it('leaves a hidden lesson out, counts only listed ones, and says what a gated one waits for', () => {
    const page = text(renderToStaticMarkup(createElement(CourseMap, { catalog })));
    expect(page).toContain('The basics');
    expect(page).not.toContain('A bonus round');
    expect(page).toContain('0 of 2 done');
    expect(page).toContain('5 min read · Opens after The basics');
  });

  it('opens the gate once the prerequisite is done', () => {
    expect(section({})).toContain('5 min read · Opens after The basics');
    const done = section({ basics: '2026-11-29T00:00:00Z' });
    expect(done).toContain('1 of 2 done');
    expect(done).not.toContain('Opens after');
  });

  it('shows a closed lesson as the way through its gate: each unfinished prerequisite a link', () => {
    const html = renderToStaticMarkup(createElement(LessonGate, { left: ['basics'], lessons: catalog.lessons }));
    expect(text(html)).toContain('This lesson opens once you have finished one lesson first The basics');
    expect(html).toContain('href="#/lesson/basics"');
  });
});
