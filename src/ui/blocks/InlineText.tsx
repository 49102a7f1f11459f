import type { ReactNode } from 'react';

/**
 * Plain text from a block's YAML with the few inline marks authors reach for: `code`,
 * **strong** and *emphasis* (or _emphasis_). Nothing else is interpreted, and everything is
 * rendered as React text, so no markup from a lesson can reach the page.
 */
export function InlineText({ text }: { text: string }) {
  return <>{inline(text)}</>;
}

const TOKEN = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|(?<![\w])_[^_\s][^_]*_(?![\w]))/g;

function inline(text: string): ReactNode[] {
  return text.split(TOKEN).map((part, i) => {
    if (part.length > 1 && part.startsWith('`') && part.endsWith('`')) return <code key={i}>{part.slice(1, -1)}</code>;
    if (part.length > 4 && part.startsWith('**') && part.endsWith('**'))
      return <strong key={i}>{part.slice(2, -2)}</strong>;
    if (
      part.length > 2 &&
      ((part.startsWith('*') && part.endsWith('*')) || (part.startsWith('_') && part.endsWith('_')))
    )
      return <em key={i}>{part.slice(1, -1)}</em>;
    return part;
  });
}
