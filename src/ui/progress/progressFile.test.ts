import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import { knownLessons } from './progressCheck';
import { emptyProgress, type ProgressData } from './progressData';
import { parseProgressFile, progressFileText, replacementSummary } from './progressFile';

const lessons = buildCatalog(readLessonSources('lessons')).lessons;
const known = knownLessons(lessons);

/** A real single-choice quiz of the course, to aim answers at. */
const quizLesson = lessons.find((l) => l.blocks.some((b) => b.kind === 'quiz' && b.spec.kind === 'single'))!;
const quiz = quizLesson.blocks.find((b) => b.kind === 'quiz' && b.spec.kind === 'single')!;
if (quiz.kind !== 'quiz' || quiz.spec.kind === 'true-false') throw new Error('no single-choice quiz in the course');
const slug = quizLesson.frontmatter.slug;
const quizKey = `${slug}/${quiz.id}`;
const firstOption = quiz.spec.options[0]!.id;

const file = (state: unknown, version = 1) => JSON.stringify({ app: 'lockstep', kind: 'progress', version, state });
const withState = (patch: Partial<ProgressData>) => file({ ...emptyProgress(), ...patch });
const refusal = (text: string) => {
  const r = parseProgressFile(text, known);
  return r.ok ? 'imported' : r.message;
};

describe('progress files', () => {
  it('round-trips an export', () => {
    const data: ProgressData = {
      ...emptyProgress(),
      completed: { [slug]: '2025-01-01T00:00:00.000Z' },
      quizzes: { [quizKey]: { selected: [firstOption], picks: {}, committed: true, hintsShown: 0 } },
    };
    expect(parseProgressFile(progressFileText(data), known)).toEqual({ ok: true, data });
  });

  it('says what a file that is not Lockstep progress is', () => {
    expect(refusal('not json')).toMatch(/not a Lockstep progress file \(it is not JSON\)/);
    expect(refusal(JSON.stringify({ state: emptyProgress(), version: 1 }))).toMatch(/not a Lockstep progress file/);
    expect(refusal(file({ completed: 3 }))).toMatch(/damaged/);
  });

  it('names both versions for a file from a newer Lockstep, rather than calling it foreign', () => {
    expect(refusal(file(emptyProgress(), 3))).toBe(
      'this file was made by a newer Lockstep (version 3); this one reads version 1. Reload the page to update Lockstep, then import it again',
    );
  });

  it('refuses dates that are not dates, naming the entry', () => {
    expect(refusal(withState({ completed: { [slug]: 'not a date' } }))).toContain(
      `completed["${slug}"]: "not a date" is not a date`,
    );
    expect(refusal(withState({ completed: { [slug]: '2025-02-31T00:00:00.000Z' } }))).toContain('is not a date');
  });

  it('refuses lessons, blocks and options this site does not have', () => {
    expect(refusal(withState({ completed: { 'no-such-lesson': '2025-01-01T00:00:00.000Z' } }))).toContain(
      "there is no lesson 'no-such-lesson'",
    );
    expect(refusal(withState({ notes: { [`${slug}/ghost-block`]: 'x' } }))).toContain(
      `lesson '${slug}' has no block 'ghost-block'`,
    );
    const ghost = refusal(
      withState({ quizzes: { [quizKey]: { selected: ['ghost-option'], picks: {}, committed: true, hintsShown: 0 } } }),
    );
    expect(ghost).toContain(`quizzes["${quizKey}"].selected: "ghost-option" is not in the block`);
  });

  it('moves progress saved under a former slug to the lesson it was renamed to', () => {
    const r = parseProgressFile(withState({ completed: { 'old-name': '2025-01-01T00:00:00.000Z' } }), known, [
      { slug, formerSlugs: ['old-name'] },
    ]);
    expect(r).toEqual({ ok: true, data: { ...emptyProgress(), completed: { [slug]: '2025-01-01T00:00:00.000Z' } } });
  });

  it('refuses counts no learner could reach', () => {
    const text = refusal(
      withState({ quizzes: { [quizKey]: { selected: [], picks: {}, committed: false, hintsShown: 1e308 } } }),
    );
    expect(text).toContain(
      `quizzes["${quizKey}"].hintsShown: 1e+308, but the block has ${quiz.spec.hints.length} hint`,
    );
    expect(refusal(withState({ notes: { [`${slug}/nope/x`]: 'x'.repeat(10) } }))).toContain('has no block');
  });

  it('tells the learner what an import will replace, before it does', () => {
    const current: ProgressData = {
      ...emptyProgress(),
      completed: { [slug]: '2025-01-01T00:00:00.000Z' },
      notes: { a: 'my note' },
    };
    const summary = replacementSummary(current, emptyProgress(), () => 'The lesson');
    expect(summary).toBe(
      'Your progress now: 1 lesson done, 0 answered quizzes, 1 note, 0 ticked items. The file: 0 lessons done, 0 answered quizzes, 0 notes, 0 ticked items. Importing replaces all of it. Lessons you finished here that the file does not list as done: The lesson.',
    );
  });
});

describe('a hostile progress file costs a scan, not a frozen page', () => {
  it('refuses a file nested thousands of levels deep before parsing it', () => {
    const deep = `{"app":"lockstep","state":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseProgressFile(deep, known)).toEqual({
      ok: false,
      message: 'it is not a Lockstep progress file (it nests far deeper than progress does)',
    });
  });

  it('does not count brackets inside notes as nesting', () => {
    const data = { ...emptyProgress(), notes: {} as Record<string, string> };
    const text = progressFileText(data).replace('"notes": {}', `"notes": {"x": "${'[{'.repeat(40)} \\" ]"}`);
    // Read to the end: refused only because no lesson 'x' exists, not for nesting.
    expect(parseProgressFile(text, known)).toEqual({
      ok: false,
      message: `it holds progress no lesson here could have saved: notes["x"]: there is no lesson 'x' on this site`,
    });
  });
});
