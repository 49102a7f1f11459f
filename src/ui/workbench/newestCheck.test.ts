import { describe, expect, it } from 'vitest';
import { newestFirst } from './newestCheck';

/** A check whose answers the test hands out one at a time, recording what it was asked. */
function controlledCheck() {
  const asked: string[] = [];
  const pending: Array<() => void> = [];
  const check = (text: string) =>
    new Promise<string>((resolve) => {
      asked.push(text);
      pending.push(() => resolve(`checked ${text}`));
    });
  const answerNext = async () => {
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { asked, check, answerNext };
}

describe('newestFirst', () => {
  it('checks an edit after a pause at once', async () => {
    const { asked, check, answerNext } = controlledCheck();
    const checked = newestFirst(check)('a');
    expect(asked).toEqual(['a']);
    await answerNext();
    await expect(checked).resolves.toEqual({ text: 'a', result: 'checked a' });
  });

  it('during a check, skips every text but the newest, and answers the skipped callers with it', async () => {
    const { asked, check, answerNext } = controlledCheck();
    const checkNewest = newestFirst(check);
    const first = checkNewest('a');
    const skipped = checkNewest('ab');
    const newest = checkNewest('abc');
    expect(asked).toEqual(['a']);
    await answerNext();
    expect(asked).toEqual(['a', 'abc']);
    await answerNext();
    await expect(first).resolves.toEqual({ text: 'a', result: 'checked a' });
    await expect(skipped).resolves.toEqual({ text: 'abc', result: 'checked abc' });
    await expect(newest).resolves.toEqual({ text: 'abc', result: 'checked abc' });
  });

  it('keeps checking after a check that failed', async () => {
    let calls = 0;
    const checkNewest = newestFirst(async (text) => {
      if (calls++ === 0) throw new Error('worker gone');
      return text.length;
    });
    await expect(checkNewest('a')).rejects.toThrow('worker gone');
    await expect(checkNewest('ab')).resolves.toEqual({ text: 'ab', result: 2 });
  });
});
