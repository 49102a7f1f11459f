import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLessonSources } from './sources';

describe('readLessonSources', () => {
  it('lists Markdown not named NN-slug.md as strays, leaving README.md alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lessons-'));
    for (const name of ['01-first.md', 'my-lesson.md', 'README.md', 'notes.txt']) writeFileSync(join(dir, name), '');
    const sources = readLessonSources(dir);
    expect(sources.lessons.map((l) => l.file)).toEqual([relative(process.cwd(), join(dir, '01-first.md'))]);
    expect(sources.strays).toEqual([relative(process.cwd(), join(dir, 'my-lesson.md'))]);
  });
});
