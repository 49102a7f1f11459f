import { describe, expect, it } from 'vitest';
import {
  adoptFormerSlugs,
  emptyProgress,
  PROGRESS_VERSION,
  readProgress,
  writeProgress,
  type ProgressData,
} from './progressData';

const sample: ProgressData = {
  completed: { 'paused-barista': '2025-01-01T00:00:00.000Z' },
  quizzes: { 'paused-barista/unlock': { selected: ['no'], picks: {}, committed: true, hintsShown: 1 } },
  notes: { 'paused-barista/stale-owner': 'check a token' },
  checks: { 'recipe/ship/ttl': true },
};

describe('readProgress', () => {
  it('round-trips what writeProgress saved', () => {
    expect(readProgress(writeProgress(sample))).toEqual({ data: sample });
  });

  it('starts empty when nothing is saved', () => {
    expect(readProgress(null)).toEqual({ data: emptyProgress() });
  });

  it.each([
    ['not JSON', '{"state": {'],
    ['no version', JSON.stringify({ state: sample })],
    ['a wrong field type', JSON.stringify({ state: { ...sample, completed: { a: 1 } }, version: PROGRESS_VERSION })],
    [
      'a malformed quiz answer',
      JSON.stringify({ state: { ...sample, quizzes: { x: { selected: 'a' } } }, version: PROGRESS_VERSION }),
    ],
    ['an array', '[]'],
  ])('treats %s as corrupt', (_name, raw) => {
    expect(readProgress(raw)).toEqual({ data: emptyProgress(), problem: 'corrupt' });
  });

  it('refuses data from a newer version instead of guessing', () => {
    expect(readProgress(JSON.stringify({ state: sample, version: PROGRESS_VERSION + 1 }))).toEqual({
      data: emptyProgress(),
      problem: 'newer',
    });
  });

  it('runs migrations in order from the saved version to the current one', () => {
    const migrations = {
      1: (old: unknown) => ({ ...(old as object), notes: {} }),
      2: (old: unknown) => ({ ...(old as object), checks: {} }),
    };
    const v1 = JSON.stringify({ state: { completed: { a: 't' }, quizzes: {} }, version: 1 });
    expect(readProgress(v1, migrations, 3)).toEqual({
      data: { completed: { a: 't' }, quizzes: {}, notes: {}, checks: {} },
    });
  });

  it('treats an old version without a migration path as corrupt', () => {
    expect(readProgress(JSON.stringify({ state: sample, version: 0 }), {}, 1).problem).toBe('corrupt');
  });
});

describe('adoptFormerSlugs', () => {
  it('moves progress saved under an old slug to the new one', () => {
    const moved = adoptFormerSlugs(sample, [{ slug: 'barista-pause', formerSlugs: ['paused-barista'] }]);
    expect(Object.keys(moved.completed)).toEqual(['barista-pause']);
    expect(Object.keys(moved.quizzes)).toEqual(['barista-pause/unlock']);
    expect(moved.notes).toEqual({ 'barista-pause/stale-owner': 'check a token' });
    expect(moved.checks).toEqual(sample.checks);
  });

  it('returns the same object when nothing was renamed', () => {
    expect(adoptFormerSlugs(sample, [{ slug: 'x', formerSlugs: ['y'] }])).toBe(sample);
  });
});
