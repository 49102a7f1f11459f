import type { Nodes } from 'mdast';
import { describe, expect, it } from 'vitest';
import { readFixture } from './fixtures/readFixture';
import { parseLesson } from './parse';
import { isSafeUrl } from './sanitize';

function collect(nodes: readonly Nodes[], type: string): Nodes[] {
  return nodes.flatMap((n) => [...(n.type === type ? [n] : []), ...('children' in n ? collect(n.children, type) : [])]);
}

describe('isSafeUrl', () => {
  it.each(['https://example.com', 'http://x.y/z', 'mailto:a@b.c', '#/lesson/first', '02-second.md', '/abs/path', '?q=1'])('allows %s', (url) => {
    expect(isSafeUrl(url)).toBe(true);
  });
  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'java\nscript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd'])('refuses %j', (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });
});

describe('sanitised prose of the injection fixture', () => {
  const { lesson, diagnostics } = parseLesson(readFixture('injection.md')!, 'injection.md');
  const prose = lesson!.blocks.flatMap((b) => (b.kind === 'prose' ? b.nodes : []));
  const json = JSON.stringify(prose);

  it('parses without diagnostics', () => {
    expect(diagnostics).toEqual([]);
  });

  it('drops every raw HTML node', () => {
    expect(collect(prose, 'html')).toEqual([]);
    expect(json).not.toMatch(/<script|onerror|onmouseover/);
  });

  it('keeps only safe link and image URLs', () => {
    const urls = collect(prose, 'link').map((l) => (l as { url: string }).url);
    expect(urls).toEqual(['https://example.com/ok', 'mailto:someone@example.com', '#/lesson/first']);
    expect(collect(prose, 'image')).toEqual([]);
    expect(json).not.toMatch(/javascript:|data:text/i);
  });

  it('keeps the text of unwrapped links so the reader still sees the words', () => {
    expect(json).toContain('a javascript link');
    expect(json).toContain('a reference link');
  });
});
