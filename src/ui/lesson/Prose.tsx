import type { ReactNode } from 'react';
import type { Nodes, Table, TableCell } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { isExternalUrl } from '../../lessons/sanitize';
import type { ProseNode } from '../../lessons/types';

/**
 * Renders sanitised Markdown (mdast) as React elements. There is deliberately no raw-HTML
 * path: the parser has already dropped HTML nodes and unsafe URLs, and React escapes text.
 */
export function Prose({ nodes }: { nodes: ProseNode[] }) {
  return <>{nodes.map((node, i) => renderNode(node, i))}</>;
}

function children(node: Nodes): ReactNode {
  return 'children' in node ? node.children.map((child, i) => renderNode(child, i)) : null;
}

function renderNode(node: Nodes, key: number): ReactNode {
  switch (node.type) {
    case 'paragraph':
      return <p key={key}>{children(node)}</p>;
    case 'heading': {
      // The page title is the only h1; body headings start at h2.
      const level = Math.min(6, Math.max(2, node.depth)) as 2 | 3 | 4 | 5 | 6;
      const Tag = `h${level}` as const;
      return <Tag key={key}>{children(node)}</Tag>;
    }
    case 'text':
      return node.value;
    case 'emphasis':
      return <em key={key}>{children(node)}</em>;
    case 'strong':
      return <strong key={key}>{children(node)}</strong>;
    case 'delete':
      return <del key={key}>{children(node)}</del>;
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'break':
      return <br key={key} />;
    case 'thematicBreak':
      return <hr key={key} />;
    case 'blockquote':
      return <blockquote key={key}>{children(node)}</blockquote>;
    case 'list':
      return node.ordered ? (
        <ol key={key} start={node.start ?? undefined}>
          {children(node)}
        </ol>
      ) : (
        <ul key={key}>{children(node)}</ul>
      );
    case 'listItem':
      return <li key={key}>{node.spread ? children(node) : unwrapParagraphs(node)}</li>;
    case 'code':
      return (
        <pre key={key} className="code-block" tabIndex={0} aria-label={node.lang ? `${node.lang} code` : 'code'}>
          <code>{node.value}</code>
        </pre>
      );
    case 'link': {
      // A link off the site opens apart and says so, to the eye and to a screen reader.
      const external = isExternalUrl(node.url);
      return (
        <a
          key={key}
          href={node.url}
          title={node.title ?? undefined}
          {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        >
          {children(node)}
          {external && (
            <>
              <span aria-hidden="true"> ↗</span>
              <span className="visually-hidden"> (external site, opens in a new tab)</span>
            </>
          )}
        </a>
      );
    }
    case 'image':
      return <img key={key} src={node.url} alt={node.alt ?? ''} title={node.title ?? undefined} loading="lazy" />;
    case 'table':
      return <ProseTable key={key} table={node} />;
    default:
      // Node kinds the parser does not produce (footnotes): keep their text.
      return 'children' in node ? <span key={key}>{children(node)}</span> : 'value' in node ? String(node.value) : null;
  }
}

/**
 * A pipe table. Its first row is the column headers; when the top-left header is empty, as in a
 * comparison ("| | Redis lease | consensus lease |"), each row's first cell names the row. A wide
 * table scrolls inside its own box (focusable, so a keyboard can scroll it) rather than the page.
 */
function ProseTable({ table }: { table: Table }) {
  const [head, ...body] = table.children;
  if (!head) return null;
  const rowHeaders = toString(head.children[0] ?? { type: 'text', value: '' }).trim() === '';
  const align = (i: number) => table.align?.[i] ?? undefined;
  const cell = (c: TableCell, i: number, Tag: 'th' | 'td', scope?: 'col' | 'row') => (
    <Tag key={i} scope={scope} style={align(i) ? { textAlign: align(i)! } : undefined}>
      {children(c)}
    </Tag>
  );
  const columns = head.children.map((c) => toString(c).trim()).filter(Boolean);
  return (
    <div className="prose-table" tabIndex={0} role="region" aria-label={`Table: ${columns.join(', ')}`}>
      <table>
        <thead>
          <tr>{head.children.map((c, i) => cell(c, i, 'th', 'col'))}</tr>
        </thead>
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              {row.children.map((c, i) => (rowHeaders && i === 0 ? cell(c, i, 'th', 'row') : cell(c, i, 'td')))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Tight list items hold one paragraph each; render its content inline, as Markdown intends. */
function unwrapParagraphs(item: Nodes): ReactNode {
  if (!('children' in item)) return null;
  return item.children.map((child, i) =>
    child.type === 'paragraph' ? <span key={i}>{children(child)}</span> : renderNode(child, i),
  );
}
