import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INVARIANTS } from '../../scenario/schema/schema';
import { GLOSSARY, glossaryEntry, seeInLesson } from './glossary';

describe('the glossary of invariants', () => {
  it('explains every invariant a verdict can name, once', () => {
    expect(GLOSSARY.map((e) => e.term).sort()).toEqual([...INVARIANTS].sort());
  });

  it('points each term at a lesson that exists', () => {
    const slugs = readdirSync('lessons')
      .filter((f) => /^\d\d-.*\.md$/.test(f))
      .flatMap((f) =>
        [...readFileSync(`lessons/${f}`, 'utf8').matchAll(/^(?:slug|formerSlugs):\s*(.+)$/gm)].map((m) => m[1]!),
      )
      .flatMap((v) =>
        v
          .replace(/[[\]]/g, '')
          .split(',')
          .map((s) => s.trim()),
      );
    for (const entry of GLOSSARY) expect(slugs, `${entry.term} → ${entry.seeIn.slug}`).toContain(entry.seeIn.slug);
  });

  it('links a term to its lesson only when the site includes that lesson (a course may leave it out)', () => {
    // An entry written before its lesson was renamed from 'failover' to 'replication-lost-lock'.
    const entry = {
      ...glossaryEntry('single-lease')!,
      seeIn: { slug: 'failover', text: 'Replication and the lost lock' },
    };
    const lesson = (slug: string, formerSlugs: string[] = []) => ({ frontmatter: { slug, formerSlugs } });
    // Followed through a rename to the slug the site routes.
    expect(seeInLesson(entry, [lesson('replication-lost-lock', ['failover'])])).toEqual({
      slug: 'replication-lost-lock',
      text: entry.seeIn.text,
    });
    expect(seeInLesson(entry, [lesson('paused-barista')])).toBeUndefined();
  });

  it('finds an entry by the name a verdict carries', () => {
    expect(glossaryEntry('single-holder')?.view).toBe('the clients');
    expect(glossaryEntry('no-such-thing')).toBeUndefined();
  });
});
