import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { referencePage } from './referencePage';

const page = referencePage();
const row = (field: string) => page.split('\n').find((line) => line.startsWith(`| \`${field}\``));

describe('lessons/REFERENCE.md', () => {
  it('is up to date with the zod schemas (run npm run -s schemas after changing a field)', () => {
    expect(readFileSync('lessons/REFERENCE.md', 'utf8')).toBe(page);
  });

  it('lists a scenario field with its type, description and example, nested fields by path', () => {
    expect(row('clients[].ttl')).toBe(
      '| `clients[].ttl` | number or string |  | How long the lease lasts: `10s`, `500ms`. | `"10s"` |',
    );
    expect(row('resource.fencing')).toContain('| boolean | `false` |');
    expect(row('title')).toContain('(required)');
  });

  it('has a section for every fenced block kind and for the frontmatter, courses.yaml and scenarios', () => {
    const headings = page.split('\n').filter((l) => l.startsWith('## '));
    for (const kind of ['quiz', 'reflect', 'match', 'checklist', 'fill-in', 'compare', 'workbench', 'claims', 'after'])
      expect(headings).toContain(`## The \`${kind}\` block`);
    expect(headings.slice(0, 3)).toEqual(['## Frontmatter', '## courses.yaml', '## Scenario']);
  });

  it('is linked from the instructor guide', () => {
    expect(readFileSync('lessons/README.md', 'utf8')).toContain('](REFERENCE.md)');
  });
});
