import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseLesson } from '../../lessons/parse';
import { Prose } from './Prose';

/** A lesson's prose as the page renders it. */
function rendered(body: string): string {
  const text = `---\nslug: t\ntitle: Tables\ncourse: c\norder: 1\nreadTime: 1\nsummary: A table.\n---\n\n${body}\n`;
  const { blocks, diagnostics } = parseLesson(text, 'lessons/t.md');
  expect(diagnostics).toEqual([]);
  const prose = blocks.flatMap((b) => (b.kind === 'prose' ? b.nodes : []));
  return renderToStaticMarkup(createElement(Prose, { nodes: prose }));
}

describe('a pipe table in a lesson', () => {
  it('renders as a table with column headers, not as a paragraph of pipes', () => {
    const html = rendered(
      ['| clause | what it buys |', '|---|---|', '| `NX` | only the *first* writer wins |'].join('\n'),
    );
    expect(html).not.toContain('|');
    expect(html).toContain('<th scope="col">clause</th><th scope="col">what it buys</th>');
    expect(html).toContain('<td><code>NX</code></td><td>only the <em>first</em> writer wins</td>');
    expect(html).toContain('aria-label="Table: clause, what it buys"');
  });

  it('makes each first cell a row header when the top-left header is empty', () => {
    const html = rendered(['| | Redis | etcd |', '|---|---|---|', '| token | INCR | revision |'].join('\n'));
    expect(html).toContain('<th scope="row">token</th><td>INCR</td><td>revision</td>');
    expect(html).toContain('aria-label="Table: Redis, etcd"');
  });

  it('keeps a column alignment the author set', () => {
    const html = rendered(['| n | name |', '|--:|:--|', '| 1 | one |'].join('\n'));
    expect(html).toContain('<td style="text-align:right">1</td><td style="text-align:left">one</td>');
  });

  it('keeps prose that only looks like a table row as text', () => {
    expect(rendered('a | b without a delimiter row')).toBe('<p>a | b without a delimiter row</p>');
  });
});
