import { describe, expect, it } from 'vitest';
import { lessonEntry } from '../../lessons/lessonIndex';
import type { Block, Lesson } from '../../lessons/types';
import { EMPTY_ANSWER } from '../progress/progressStore';
import { completionOf } from './lessonCompletion';

// Completion reads the index entry the build computes from the lesson's blocks.
const lessonWith = (blocks: Partial<Block>[]) =>
  lessonEntry({ frontmatter: { slug: 'l' }, blocks } as unknown as Lesson);
const committed = { ...EMPTY_ANSWER, committed: true, earned: true };

describe('when a lesson counts as done', () => {
  const lesson = lessonWith([
    { kind: 'prose' },
    { kind: 'scenario', id: 'main' },
    { kind: 'quiz', id: 'q1' },
    { kind: 'scenario', id: 'extra' },
    { kind: 'quiz', id: 'q2' },
  ]);

  it('needs every quiz earned and the first scenario run', () => {
    expect(completionOf(lesson, {}, {})).toMatchObject({
      quizzes: 2,
      quizzesAnswered: 0,
      mainScenario: 'main',
      complete: false,
    });
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': committed }, {}).complete).toBe(false);
    expect(completionOf(lesson, { 'l/q1': committed }, { 'l/main': true }).complete).toBe(false);
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': committed }, { 'l/main': true }).complete).toBe(true);
  });

  it('does not count an answer that was picked but not committed, or a later scenario', () => {
    const picked = { ...EMPTY_ANSWER, selected: ['a'] };
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': picked }, { 'l/extra': true })).toMatchObject({
      quizzesAnswered: 1,
      mainScenarioRun: false,
    });
  });

  it('does not count a wrong answer until the learner gets it right, or shows the answer after trying', () => {
    const wrong = { ...EMPTY_ANSWER, committed: true, selected: ['b'], earned: false, missed: true };
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': wrong }, { 'l/main': true })).toMatchObject({
      quizzesAnswered: 1,
      complete: false,
    });
    const retried = { ...EMPTY_ANSWER, earned: false, missed: true };
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': retried }, { 'l/main': true }).complete).toBe(false);
    const rightLater = { ...EMPTY_ANSWER, committed: true, selected: ['a'], earned: true, missed: true };
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': rightLater }, { 'l/main': true }).complete).toBe(true);
  });

  it('counts a committed answer saved before quizzes were earned, so no finished lesson comes undone', () => {
    const saved = { ...EMPTY_ANSWER, committed: true, selected: ['b'] };
    expect(completionOf(lesson, { 'l/q1': saved, 'l/q2': saved }, { 'l/main': true }).complete).toBe(true);
  });

  it('never completes a lesson with nothing to do by itself', () => {
    expect(completionOf(lessonWith([{ kind: 'prose' }]), {}, {}).complete).toBe(false);
  });
});
