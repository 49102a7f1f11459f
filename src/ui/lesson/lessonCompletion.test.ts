import { describe, expect, it } from 'vitest';
import { lessonEntry } from '../../lessons/lessonIndex';
import type { Block, Lesson } from '../../lessons/types';
import { EMPTY_ANSWER } from '../progress/progressStore';
import { completionOf } from './lessonCompletion';

// Completion reads the index entry the build computes from the lesson's blocks.
const lessonWith = (blocks: Partial<Block>[]) => lessonEntry({ frontmatter: { slug: 'l' }, blocks } as unknown as Lesson);
const committed = { ...EMPTY_ANSWER, committed: true };

describe('when a lesson counts as done', () => {
  const lesson = lessonWith([{ kind: 'prose' }, { kind: 'scenario', id: 'main' }, { kind: 'quiz', id: 'q1' }, { kind: 'scenario', id: 'extra' }, { kind: 'quiz', id: 'q2' }]);

  it('needs every quiz committed and the first scenario run', () => {
    expect(completionOf(lesson, {}, {})).toMatchObject({ quizzes: 2, quizzesAnswered: 0, mainScenario: 'main', complete: false });
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': committed }, {}).complete).toBe(false);
    expect(completionOf(lesson, { 'l/q1': committed }, { 'l/main': true }).complete).toBe(false);
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': committed }, { 'l/main': true }).complete).toBe(true);
  });

  it('does not count an answer that was picked but not committed, or a later scenario', () => {
    const picked = { ...EMPTY_ANSWER, selected: ['a'] };
    expect(completionOf(lesson, { 'l/q1': committed, 'l/q2': picked }, { 'l/extra': true })).toMatchObject({ quizzesAnswered: 1, mainScenarioRun: false });
  });

  it('never completes a lesson with nothing to do by itself', () => {
    expect(completionOf(lessonWith([{ kind: 'prose' }]), {}, {}).complete).toBe(false);
  });
});
