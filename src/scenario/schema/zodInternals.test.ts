import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * zod's `_zod` property is its private machinery and changes between minor versions; walking a
 * schema goes through the public classes (`instanceof z.ZodObject`, `.shape`, `.unwrap()`).
 */
describe('zod internals', () => {
  it('no source file reads zod private `_zod`', () => {
    const files = (readdirSync('src', { recursive: true }) as string[]).filter(
      (f) => /\.tsx?$/.test(f) && !f.endsWith('zodInternals.test.ts'),
    );
    const readers = files.filter((f) => readFileSync(join('src', f), 'utf8').includes('._zod'));
    expect(readers).toEqual([]);
  });
});
