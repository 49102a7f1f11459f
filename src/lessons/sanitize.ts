import type { Definition, Nodes, Root, RootContent } from 'mdast';

const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];

/**
 * Whether a link or image URL may reach the page. Relative URLs and http(s)/mailto pass;
 * `javascript:`, `data:`, `vbscript:` and every other scheme are refused. Control characters
 * and whitespace are removed first because browsers ignore them inside a scheme
 * (`java\tscript:` still runs).
 */
export function isSafeUrl(url: string): boolean {
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (!scheme) return true;
  return SAFE_SCHEMES.includes(scheme[0].toLowerCase());
}

/**
 * Returns `nodes` (children of `document`) made safe to render: raw HTML nodes dropped, link
 * and image references resolved against the document's definitions, links with unsafe URLs unwrapped to their
 * text, unsafe images dropped, and `position`/`data` removed so the result is small plain JSON.
 */
export function sanitizeMdast(nodes: readonly RootContent[], document: Root): RootContent[] {
  const definitions = new Map<string, Definition>();
  collectDefinitions(document, definitions);
  return cleanChildren(nodes, definitions) as RootContent[];
}

function collectDefinitions(node: Nodes, into: Map<string, Definition>): void {
  if (node.type === 'definition') into.set(node.identifier, node);
  if ('children' in node) for (const child of node.children) collectDefinitions(child, into);
}

function cleanChildren(children: readonly Nodes[], definitions: Map<string, Definition>): Nodes[] {
  return children.flatMap((child) => clean(child, definitions));
}

function clean(node: Nodes, definitions: Map<string, Definition>): Nodes[] {
  switch (node.type) {
    case 'html':
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return [];
    case 'linkReference': {
      const def = definitions.get(node.identifier);
      const children = cleanChildren(node.children, definitions);
      if (!def || !isSafeUrl(def.url)) return children;
      return [{ type: 'link', url: def.url, title: def.title ?? null, children } as Nodes];
    }
    case 'imageReference': {
      const def = definitions.get(node.identifier);
      if (!def || !isSafeUrl(def.url)) return [];
      return [{ type: 'image', url: def.url, alt: node.alt ?? '', title: def.title ?? null } as Nodes];
    }
    case 'link': {
      const children = cleanChildren(node.children, definitions);
      if (!isSafeUrl(node.url)) return children;
      return [{ type: 'link', url: node.url, title: node.title ?? null, children } as Nodes];
    }
    case 'image':
      if (!isSafeUrl(node.url)) return [];
      return [{ type: 'image', url: node.url, alt: node.alt ?? '', title: node.title ?? null } as Nodes];
    default: {
      const { position: _position, data: _data, ...rest } = node as Nodes & { data?: unknown };
      if ('children' in rest) {
        const children = cleanChildren(rest.children as Nodes[], definitions);
        // A paragraph that held only dropped HTML or an unsafe image would leave an empty gap.
        if (rest.type === 'paragraph' && children.length === 0) return [];
        return [{ ...rest, children } as Nodes];
      }
      return [rest as Nodes];
    }
  }
}
