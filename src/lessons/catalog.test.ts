import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../scenario/diagnostic';
import { buildCatalog } from './catalog';
import { readFixture } from './fixtures/readFixture';

const COURSES = { file: 'lessons/courses.yaml', text: readFixture('valid/courses.yaml')! };

function fromFixtures(names: string[], dir = 'broken') {
  return buildCatalog({
    courses: [COURSES],
    lessons: names.map((n) => ({ file: `lessons/${n}`, text: readFixture(`${dir}/${n}`)! })),
    readRef: (p) => readFixture(`valid/${p}`),
  });
}

describe('buildCatalog', () => {
  it('orders courses and lessons and turns lesson-file links into routes', () => {
    const catalog = fromFixtures(['02-second.md', '01-first.md'], 'valid');
    expect(catalog.diagnostics).toEqual([]);
    expect(catalog.courses.map((c) => c.id)).toEqual(['fixtures']);
    expect(catalog.lessons.map((l) => l.frontmatter.slug)).toEqual(['first', 'second']);
    expect(JSON.stringify(catalog.lessons[1])).toContain('"url":"#/lesson/first"');
  });

  it('names both files of a duplicate slug', () => {
    const { diagnostics } = fromFixtures(['duplicate-slug-a.md', 'duplicate-slug-b.md']);
    expect(diagnostics.map(formatDiagnostic)).toContain(
      "lessons/duplicate-slug-b.md:2:7: duplicate slug 'same-slug': lessons/duplicate-slug-a.md:2 uses it too (every lesson needs its own slug (formerSlugs count too))",
    );
  });

  it('reports a prerequisite that is not a lesson', () => {
    expect(fromFixtures(['missing-prerequisite.md']).diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/missing-prerequisite.md:8:17: prerequisite 'paused-barista' is not a lesson (use the slug of an existing lesson)",
    ]);
  });

  it('reports a link to a lesson file that does not exist', () => {
    expect(fromFixtures(['missing-link.md']).diagnostics.map(formatDiagnostic)).toEqual([
      'lessons/missing-link.md:10:5: link to a lesson that does not exist: 99-nowhere.md (link to a lessons/NN-slug.md file)',
    ]);
  });

  it('reports a route link to a lesson that does not exist, and keeps one that does', () => {
    const catalog = buildCatalog({
      courses: [COURSES],
      lessons: [
        { file: 'lessons/01-first.md', text: readFixture('valid/01-first.md')! },
        { file: 'lessons/02-second.md', text: readFixture('valid/02-second.md')! },
        { file: 'lessons/route-link.md', text: readFixture('broken/route-link.md')! },
      ],
      readRef: (p) => readFixture(`valid/${p}`),
    });
    expect(catalog.diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/route-link.md:10:37: link to a lesson that does not exist: #/lesson/frist (did you mean 'first'?)",
    ]);
  });

  it('reports Markdown in the lessons folder that is not named like a lesson, instead of ignoring it', () => {
    const catalog = buildCatalog({
      courses: [COURSES],
      lessons: [],
      readRef: () => undefined,
      strays: ['lessons/My New Lesson.md'],
    });
    expect(catalog.diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/My New Lesson.md:1:1: 'My New Lesson.md' is not a lesson, so the site does not show it: lesson files are named NN-slug.md (rename it like 11-my-new-lesson.md, with the number giving its place, or move it out of the lessons folder)",
    ]);
  });

  it('reports an unknown course with a suggestion', () => {
    expect(fromFixtures(['unknown-course.md']).diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/unknown-course.md:4:9: unknown course 'fixturez' (did you mean 'fixtures'?)",
    ]);
  });

  it('reports a missing courses.yaml only when there are lessons', () => {
    expect(buildCatalog({ courses: [], lessons: [], readRef: () => undefined }).diagnostics).toEqual([]);
    const withLesson = buildCatalog({
      courses: [],
      lessons: [{ file: 'lessons/a.md', text: readFixture('valid/02-second.md')! }],
      readRef: () => undefined,
    });
    expect(withLesson.diagnostics.map(formatDiagnostic)).toContain(
      'lessons/courses.yaml:1:1: lessons/courses.yaml is missing (list each course with id, title, order and description)',
    );
  });

  it('reports problems in courses.yaml itself', () => {
    const catalog = buildCatalog({
      courses: [{ file: 'lessons/courses.yaml', text: '- id: a\n  title: A\n  order: 1\n  descripton: x\n' }],
      lessons: [],
      readRef: () => undefined,
    });
    expect(catalog.diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/courses.yaml:4:3: unknown key 'descripton' in [0] (did you mean 'description'? It is required, so rename 'descripton' to 'description')",
    ]);
  });
});

describe('hidden and gated lessons', () => {
  const lesson = (slug: string, order: number, extra: string) => ({
    file: `lessons/0${order}-${slug}.md`,
    text: [
      '---',
      `slug: ${slug}`,
      `title: ${slug}`,
      'course: fixtures',
      `order: ${order}`,
      'readTime: 5',
      'summary: x',
      extra,
      '---',
      '',
      'Text.',
      '',
    ].join('\n'),
  });
  const diagnostics = (...lessons: { file: string; text: string }[]) =>
    buildCatalog({ courses: [COURSES], lessons, readRef: () => undefined }).diagnostics.map(formatDiagnostic);

  it('accepts a hidden lesson and a gated one with its prerequisites', () => {
    expect(
      diagnostics(lesson('basics', 1, 'hidden: true'), lesson('exam', 2, 'gated: true\nprerequisites: [basics]')),
    ).toEqual([]);
  });

  it('refuses a gated lesson with nothing to wait for, at its gated key', () => {
    expect(diagnostics(lesson('exam', 1, 'gated: true'))).toEqual([
      "lessons/01-exam.md:8:8: a gated lesson needs prerequisites: it opens once they are finished (list them under 'prerequisites:', or remove 'gated: true')",
    ]);
  });

  it('reports prerequisites that go round in a circle once, where the circle starts', () => {
    const found = diagnostics(
      lesson('a', 1, 'prerequisites: [c]'),
      lesson('b', 2, 'prerequisites: [a]'),
      lesson('c', 3, 'gated: true\nprerequisites: [b]'),
      lesson('d', 4, 'prerequisites: [d]'),
    );
    expect(found).toEqual([
      'lessons/01-a.md:8:17: prerequisites go round in a circle: a → c → b → a (remove one of them: no lesson in a circle can be read first, and a gated one never opens)',
      'lessons/04-d.md:8:17: prerequisites go round in a circle: d → d (remove one of them: no lesson in a circle can be read first, and a gated one never opens)',
    ]);
  });
});
