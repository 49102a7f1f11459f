import type { Nodes } from 'mdast';
import { describe, expect, it } from 'vitest';
import { readFixture } from './fixtures/readFixture';
import { parseLesson } from './parse';
import { formatDiagnostic } from '../scenario/diagnostic';
import { isExternalUrl, isSafeUrl, urlKind } from './sanitize';

function collect(nodes: readonly Nodes[], type: string): Nodes[] {
  return nodes.flatMap((n) => [...(n.type === type ? [n] : []), ...('children' in n ? collect(n.children, type) : [])]);
}

describe('isSafeUrl', () => {
  it.each([
    'https://example.com',
    'http://x.y/z',
    'mailto:a@b.c',
    '#/lesson/first',
    '02-second.md',
    '/abs/path',
    '?q=1',
  ])('allows %s', (url) => {
    expect(isSafeUrl(url)).toBe(true);
  });
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'java\nscript:x',
    'data:text/html,x',
    'vbscript:x',
    'file:///etc/passwd',
  ])('refuses %j', (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });
});

describe('sanitised prose of the injection fixture', () => {
  const { lesson, diagnostics } = parseLesson(readFixture('injection.md')!, 'injection.md');
  const prose = lesson!.blocks.flatMap((b) => (b.kind === 'prose' ? b.nodes : []));
  const json = JSON.stringify(prose);

  it('parses with one warning, for the image from another site', () => {
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^injection\.md:26:1: warning: the image https:\/\/tracker\.example\/pixel\.gif is on another site/,
      ),
    ]);
  });

  it('drops every raw HTML node', () => {
    expect(collect(prose, 'html')).toEqual([]);
    expect(json).not.toMatch(/<script|onerror|onmouseover/);
  });

  it('keeps only safe link and image URLs', () => {
    const urls = collect(prose, 'link').map((l) => (l as { url: string }).url);
    expect(urls).toEqual([
      'https://tracker.example/pixel.gif',
      'https://evil.example/x',
      'https://example.com/ok',
      'mailto:someone@example.com',
      '#/lesson/first',
    ]);
    expect(collect(prose, 'image')).toEqual([]);
    expect(json).not.toMatch(/javascript:|data:text/i);
  });

  it('keeps the text of unwrapped links so the reader still sees the words', () => {
    expect(json).toContain('a javascript link');
    expect(json).toContain('a reference link');
  });
});

describe('links and images that leave the site', () => {
  const lessonWith = (body: string) =>
    parseLesson(
      `---\nslug: x\ntitle: X\ncourse: fixtures\norder: 1\nreadTime: 1\nsummary: s\n---\n\n${body}\n`,
      'lessons/01-x.md',
    );
  const proseOf = (r: ReturnType<typeof lessonWith>) =>
    r.lesson!.blocks.flatMap((b) => (b.kind === 'prose' ? b.nodes : []));

  it.each([
    ['https://example.com', 'external'],
    ['mailto:a@b.c', 'external'],
    ['//evil.example/x', 'external'],
    ['\\\\evil.example/x', 'external'],
    ['/\\evil.example/x', 'external'],
    ['#/lesson/first', 'internal'],
    ['images/diagram.svg', 'internal'],
    ['/abs/path', 'internal'],
    ['javascript:alert(1)', 'unsafe'],
  ] as const)('%j is %s', (url, kind) => {
    expect(urlKind(url)).toBe(kind);
  });

  it('spells a //host link with https: so the page marks it as leaving the site', () => {
    const links = collect(proseOf(lessonWith('[a host](//evil.example/x)')), 'link') as { url: string }[];
    expect(links.map((l) => l.url)).toEqual(['https://evil.example/x']);
    expect(isExternalUrl(links[0]!.url)).toBe(true);
  });

  it('shows an image from another site as a link to it, with a warning at the image', () => {
    const r = lessonWith('Look: ![the ring](https://cdn.example/ring.png) and ![ours](images/ring.svg).');
    const prose = proseOf(r);
    expect(collect(prose, 'image')).toEqual([{ type: 'image', url: 'images/ring.svg', alt: 'ours', title: null }]);
    expect(collect(prose, 'link')).toEqual([
      {
        type: 'link',
        url: 'https://cdn.example/ring.png',
        title: null,
        children: [{ type: 'text', value: 'the ring' }],
      },
    ]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'lessons/01-x.md:10:7: warning: the image https://cdn.example/ring.png is on another site, so it is shown as a link, not loaded (images load from this site only (another site would learn who reads the lesson); put the file under public/ and link it relatively)',
    ]);
  });

  it('keeps only the words of an external image inside a link, never a link in a link', () => {
    const prose = proseOf(lessonWith('[![badge](https://img.example/b.svg)](https://example.com)'));
    expect(collect(prose, 'link')).toEqual([
      { type: 'link', url: 'https://example.com', title: null, children: [{ type: 'text', value: 'badge' }] },
    ]);
  });
});
