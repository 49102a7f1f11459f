import type { ReactNode } from 'react';
import type { Nodes } from 'mdast';
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
    default:
      // Node kinds remark-parse does not produce without plugins (tables, footnotes): keep their text.
      return 'children' in node ? <span key={key}>{children(node)}</span> : 'value' in node ? String(node.value) : null;
  }
}

/** Tight list items hold one paragraph each; render its content inline, as Markdown intends. */
function unwrapParagraphs(item: Nodes): ReactNode {
  if (!('children' in item)) return null;
  return item.children.map((child, i) =>
    child.type === 'paragraph' ? <span key={i}>{children(child)}</span> : renderNode(child, i),
  );
}
