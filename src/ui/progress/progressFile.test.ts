import { describe, expect, it } from 'vitest';
import { emptyProgress } from './progressData';
import { parseProgressFile, progressFileText } from './progressFile';

describe('progress files', () => {
  it('round-trips an export', () => {
    const data = { ...emptyProgress(), completed: { a: '2025-01-01T00:00:00.000Z' }, notes: { 'a/r': 'n' } };
    expect(parseProgressFile(progressFileText(data))).toEqual(data);
  });

  it('rejects files that are not Lockstep progress', () => {
    expect(parseProgressFile('not json')).toBeNull();
    expect(parseProgressFile(JSON.stringify({ state: emptyProgress(), version: 1 }))).toBeNull();
    expect(parseProgressFile(JSON.stringify({ app: 'lockstep', state: { completed: 3 }, version: 1 }))).toBeNull();
  });
});
