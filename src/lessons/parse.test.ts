import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../scenario/diagnostic';
import { readFixture } from './fixtures/readFixture';
import { parseLesson } from './parse';

const VALID = 'src/lessons/fixtures/valid';
const BROKEN = 'src/lessons/fixtures/broken';

function parseFixture(dir: string, name: string) {
  const rel = dir.replace('src/lessons/fixtures/', '');
  const text = readFixture(`${rel}/${name}`);
  if (text === undefined) throw new Error(`missing fixture ${name}`);
  return parseLesson(text, `${dir}/${name}`, { readRef: (p) => readFixture(`${rel}/${p}`) });
}

/** The formatted problems of one broken fixture: exactly what `lessons:check` prints. */
function problems(name: string): string[] {
  return parseFixture(BROKEN, name).diagnostics.map(formatDiagnostic);
}

describe('parseLesson on a valid lesson', () => {
  const { lesson, diagnostics } = parseFixture(VALID, '01-first.md');

  it('reads the frontmatter with defaults and reading time in minutes', () => {
    expect(diagnostics).toEqual([]);
    expect(lesson?.frontmatter).toEqual({
      slug: 'first',
      title: 'The first lesson',
      course: 'fixtures',
      order: 1,
      readTime: 6,
      summary: 'A lesson that uses every block.',
      prerequisites: [],
      formerSlugs: [],
      sources: [
        {
          title: 'Distributed Locks with Redis',
          url: 'https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/',
          by: 'Redis',
        },
      ],
    });
  });

  it('keeps blocks in reading order with stable ids', () => {
    expect(lesson?.blocks.map((b) => `${b.kind}:${'id' in b ? b.id : ''}`)).toEqual([
      'prose:',
      'scenario:paused',
      'quiz:release',
      'reflect:reflect-1',
      'scenario:two-baristas',
      'compare:compare-1',
      'match:match-1',
      'checklist:checklist-1',
      'fill-in:fill-in-1',
      'quiz:quiz-2',
    ]);
  });

  it('parses the quiz with hints, explanations and the correct option', () => {
    const quiz = lesson?.blocks.find((b) => b.kind === 'quiz');
    expect(quiz?.kind === 'quiz' && quiz.spec).toMatchObject({
      kind: 'single',
      hints: ['Think about when A writes.', 'The release happens after the write.'],
      options: [
        { id: 'yes', correct: false },
        { id: 'no', correct: true, explanation: 'The token check protects the DEL, not the write.' },
      ],
    });
  });

  it('loads a referenced scenario file and resolves compare sides', () => {
    const ref = lesson?.blocks.find((b) => b.kind === 'scenario' && b.ref);
    expect(ref?.kind === 'scenario' && ref.scenario.clients.map((c) => c.label)).toEqual(['Barista A', 'Barista B']);
    const compare = lesson?.blocks.find((b) => b.kind === 'compare');
    expect(
      compare?.kind === 'compare' && [compare.left.scenario.resource.fencing, compare.right.scenario.resource.fencing],
    ).toEqual([false, true]);
    expect(compare?.kind === 'compare' && compare.right.scenario.id).toBe('paused');
  });

  it('records relative links to lesson files for the catalog to check', () => {
    expect(parseFixture(VALID, '01-first.md').links).toEqual([{ target: '02-second.md', line: 13, col: 60 }]);
  });

  it('produces plain JSON without source positions', () => {
    const json = JSON.stringify(lesson);
    expect(json).not.toContain('"position"');
    expect(JSON.parse(json)).toEqual(lesson);
  });
});

describe('parseLesson reports each broken input at its exact place', () => {
  // A RegExp where the message lists engine values that grow over time (the recipe names).
  const cases: [string, string | RegExp][] = [
    [
      'no-closing-frontmatter.md',
      "no-closing-frontmatter.md:1:1: the frontmatter has no closing '---' (add a line with just --- after the last frontmatter key)",
    ],
    [
      'frontmatter-yaml-syntax.md',
      'frontmatter-yaml-syntax.md:6:10: this value contains \': \' (a colon and a space), which YAML reads as the start of a new key (put the whole value in quotes: "Locks: a primer")',
    ],
    [
      'duplicate-key.md',
      "duplicate-key.md:6:1: duplicate key 'title': it is already set at line 3, column 1 (each key may appear once in a mapping; remove or rename one of them)",
    ],
    ['wrong-type.md', 'wrong-type.md:5:8: order should be a number (it is text here: "first")'],
    [
      'unknown-key.md',
      "unknown-key.md:3:1: unknown key 'tilte' (did you mean 'title'? It is required, so rename 'tilte' to 'title')",
    ],
    [
      'quiz-no-correct.md',
      "quiz-no-correct.md:17:3: no option is marked correct (add 'correct: true' to the right option)",
    ],
    [
      'quiz-two-correct.md',
      "quiz-two-correct.md:15:34: a single-choice quiz has 2 correct options (a, b) (mark exactly one option correct, or use 'kind: multiple')",
    ],
    [
      'quiz-one-option.md',
      'quiz-one-option.md:14:3: a quiz needs at least two options, found 1 (add the tempting wrong answers too)',
    ],
    [
      'quiz-duplicate-ids.md',
      "quiz-duplicate-ids.md:15:11: duplicate option id 'a' (first used by options[0]) (give every option its own id)",
    ],
    [
      'quiz-yaml-syntax.md',
      'quiz-yaml-syntax.md:14:11: this value contains \': \' (a colon and a space), which YAML reads as the start of a new key (put the whole value in quotes: "Locks: which one?")',
    ],
    [
      'quiz-bad-kind.md',
      "quiz-bad-kind.md:11:7: kind must be one of: single, multiple, true-false (did you mean 'single'?)",
    ],
    [
      'scenario-missing-ref.md',
      "scenario-missing-ref.md:11:6: scenario file 'scenarios/nowhere.yaml' does not exist (create src/lessons/fixtures/broken/scenarios/nowhere.yaml or fix the path)",
    ],
    [
      'scenario-error.md',
      /^src\/lessons\/fixtures\/broken\/scenario-error\.md:16:22: clients\[0\]\.recipe must be one of: .*lease-with-token.* \(did you mean 'lease-with-token'\?\)$/,
    ],
    [
      'block-typo.md',
      "block-typo.md:10:4: unknown block 'quizz' (did you mean 'quiz'? (otherwise it is shown as code))",
    ],
  ];
  it.each(cases)('%s', (name, expected) => {
    if (typeof expected === 'string') expect(problems(name)).toContain(`${BROKEN}/${expected}`);
    else expect(problems(name).some((line) => expected.test(line))).toBe(true);
  });

  it('still returns the lesson when only a block is broken, with the block marked invalid', () => {
    const { lesson } = parseFixture(BROKEN, 'quiz-no-correct.md');
    const invalid = lesson?.blocks.find((b) => b.kind === 'invalid');
    expect(invalid).toMatchObject({ kind: 'invalid', lang: 'quiz', line: 13 });
  });

  it('gives a misspelt required key one message, not a second "missing" one', () => {
    expect(problems('unknown-key.md')).toEqual([
      `${BROKEN}/unknown-key.md:3:1: unknown key 'tilte' (did you mean 'title'? It is required, so rename 'tilte' to 'title')`,
    ]);
  });

  it('returns no lesson when the frontmatter is unusable', () => {
    expect(parseFixture(BROKEN, 'wrong-type.md').lesson).toBeNull();
  });

  it('reports a lesson without frontmatter at line 1', () => {
    const r = parseLesson('# Just a heading\n', 'lessons/x.md');
    expect(r.diagnostics.map(formatDiagnostic)[0]).toMatch(
      /^lessons\/x\.md:1:1: a lesson must start with a '---' line/,
    );
  });

  it('reports a block fence hidden inside a list', () => {
    const text =
      '---\nslug: a\ntitle: A\ncourse: c\norder: 1\nreadTime: 5\nsummary: s\n---\n\n- item\n\n  ```quiz\n  kind: single\n  ```\n';
    expect(parseLesson(text, 'l.md').diagnostics.map(formatDiagnostic)).toContain(
      'l.md:12:3: a quiz block must not be nested in a list or quote (move the fence to the start of a line, outside the list)',
    );
  });

  it('reports a compare naming a scenario that is not in the lesson', () => {
    const text =
      '---\nslug: a\ntitle: A\ncourse: c\norder: 1\nreadTime: 5\nsummary: s\n---\n\n```compare\nscenario: nope\nleft: { label: L }\nright: { label: R }\n```\n';
    expect(parseLesson(text, 'l.md').diagnostics.map(formatDiagnostic)).toEqual([
      "l.md:11:1: no scenario 'nope' in this lesson (add a ```scenario block or use ref: scenarios/<name>.yaml)",
    ]);
  });
});
