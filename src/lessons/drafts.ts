import type { CatalogSources } from './catalog';
import { splitFrontmatter } from './frontmatter';
import { parseYamlSource } from '../scenario/text/yamlSource';

/** A lesson's slug, course and draft flag read from its frontmatter alone (the full parse comes later, once). */
export function lessonIdentity(text: string): { slug?: string; course?: string; draft?: boolean } {
  const split = splitFrontmatter(text, '');
  if (!split.ok) return {};
  const value = parseYamlSource(split.yaml, { file: '', line: 1 }).value as
    { slug?: unknown; course?: unknown; draft?: unknown } | undefined;
  return {
    ...(typeof value?.slug === 'string' ? { slug: value.slug } : {}),
    ...(typeof value?.course === 'string' ? { course: value.course } : {}),
    ...(value?.draft === true ? { draft: true } : {}),
  };
}

/**
 * The sources a build publishes: lessons marked `draft: true` are left out before the catalog is
 * built, so a published lesson that links to a draft is reported like a link to a missing lesson.
 * `npm run dev` and the preview keep drafts, so an author sees them while writing.
 */
export function withoutDrafts(sources: CatalogSources): CatalogSources {
  return { ...sources, lessons: sources.lessons.filter((l) => !lessonIdentity(l.text).draft) };
}
