import type { Definition, Nodes, Root, RootContent } from 'mdast';

const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];

/**
 * Where a link or image URL leads: `internal` (relative, this site), `external` (http(s),
 * mailto, or `//host`, which a browser reads as another site), or `unsafe` (`javascript:`,
 * `data:`, `vbscript:` and every other scheme). Control characters and whitespace are removed
 * first because browsers ignore them inside a scheme (`java\tscript:` still runs), and
 * backslashes count as slashes because browsers read `\\host` and `/\host` as `//host`.
 */
export function urlKind(url: string): 'internal' | 'external' | 'unsafe' {
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').replace(/\\/g, '/');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme) return SAFE_SCHEMES.includes(scheme[0].toLowerCase()) ? 'external' : 'unsafe';
  return compact.startsWith('//') ? 'external' : 'internal';
}

/** Whether a link or image URL may reach the page at all. */
export function isSafeUrl(url: string): boolean {
  return urlKind(url) !== 'unsafe';
}

/** Whether a link leaves the site (the page marks it and opens it apart). */
export function isExternalUrl(url: string): boolean {
  return urlKind(url) === 'external';
}

/** A `//host/x` address spelt out as `https://host/x`, so it cannot inherit an `http:` page's scheme. */
function explicitScheme(url: string): string {
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').replace(/\\/g, '/');
  return compact.startsWith('//') ? `https:${compact}` : url;
}

/** A problem worth a warning, at a node of the Markdown (an external image). */
export type ProseWarning = (node: Nodes, message: string, hint: string) => void;

/**
 * Returns `nodes` (children of `document`) made safe to render: raw HTML nodes dropped, link
 * and image references resolved against the document's definitions, links with unsafe URLs
 * unwrapped to their text, unsafe images dropped, `//host` links spelt with `https:`, and
 * `position`/`data` removed so the result is small plain JSON. Images load from the site only:
 * an image from another site would tell that site who reads the lesson, and can change under
 * the lesson's feet, so it becomes a link to the image (its alt text as the words) and `warn`
 * is told.
 */
export function sanitizeMdast(
  nodes: readonly RootContent[],
  document: Root,
  warn: ProseWarning = () => {},
): RootContent[] {
  const definitions = new Map<string, Definition>();
  collectDefinitions(document, definitions);
  return cleanChildren(nodes, { definitions, warn }) as RootContent[];
}

interface Context {
  definitions: Map<string, Definition>;
  warn: ProseWarning;
  /** Inside a link's words: an external image there becomes its alt text, not a nested link. */
  inLink?: boolean;
}

function collectDefinitions(node: Nodes, into: Map<string, Definition>): void {
  if (node.type === 'definition') into.set(node.identifier, node);
  if ('children' in node) for (const child of node.children) collectDefinitions(child, into);
}

function cleanChildren(children: readonly Nodes[], ctx: Context): Nodes[] {
  return children.flatMap((child) => clean(child, ctx));
}

function link(url: string, title: string | null | undefined, children: Nodes[]): Nodes {
  return { type: 'link', url: explicitScheme(url), title: title ?? null, children } as Nodes;
}

/** An image from the site, or, from elsewhere, a link to it (with a warning). */
function image(node: Nodes, url: string, alt: string, title: string | null | undefined, ctx: Context): Nodes[] {
  const kind = urlKind(url);
  if (kind === 'unsafe') return [];
  if (kind === 'internal') return [{ type: 'image', url, alt, title: title ?? null } as Nodes];
  ctx.warn(
    node,
    `the image ${url} is on another site, so it is shown as a link, not loaded`,
    'images load from this site only (another site would learn who reads the lesson); put the file under public/ and link it relatively',
  );
  const words = { type: 'text', value: alt.trim() || 'image' } as Nodes;
  return [ctx.inLink ? words : link(url, title, [words])];
}

function clean(node: Nodes, ctx: Context): Nodes[] {
  const { definitions } = ctx;
  switch (node.type) {
    case 'html':
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return [];
    case 'linkReference': {
      const def = definitions.get(node.identifier);
      const children = cleanChildren(node.children, { ...ctx, inLink: true });
      if (!def || !isSafeUrl(def.url)) return children;
      return [link(def.url, def.title, children)];
    }
    case 'imageReference': {
      const def = definitions.get(node.identifier);
      if (!def) return [];
      return image(node, def.url, node.alt ?? '', def.title, ctx);
    }
    case 'link': {
      const children = cleanChildren(node.children, { ...ctx, inLink: true });
      if (!isSafeUrl(node.url)) return children;
      return [link(node.url, node.title, children)];
    }
    case 'image':
      return image(node, node.url, node.alt ?? '', node.title, ctx);
    default: {
      const { position: _position, data: _data, ...rest } = node as Nodes & { data?: unknown };
      if ('children' in rest) {
        const children = cleanChildren(rest.children as Nodes[], ctx);
        // A paragraph that held only dropped HTML or an unsafe image would leave an empty gap.
        if (rest.type === 'paragraph' && children.length === 0) return [];
        return [{ ...rest, children } as Nodes];
      }
      return [rest as Nodes];
    }
  }
}
