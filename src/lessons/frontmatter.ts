import { z } from 'zod';
import type { Diagnostic } from '../scenario/diagnostic';

export const slugSchema = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single dashes, e.g. paused-barista');

/** Minutes, written as a number (`7`) or with a unit (`7 min`). */
const readTime = z
  .union([z.number(), z.string()])
  .transform((raw, ctx): number => {
    const match = typeof raw === 'number' ? [String(raw), String(raw)] : /^\s*(\d+)\s*(?:min|mins|minutes)?\s*$/.exec(raw);
    const minutes = match ? Number(match[1]) : NaN;
    if (!Number.isInteger(minutes) || minutes <= 0) {
      ctx.addIssue({ code: 'custom', message: `'${raw}' is not a reading time (write it like 7 or "7 min")` });
      return z.NEVER;
    }
    return minutes;
  });

/** Where a lesson's facts come from: a docs page, a library's source, the article an argument is from. */
export const sourceSchema = z.strictObject({
  title: z.string().min(1),
  url: z.url({ protocol: /^https?$/, error: 'write the full address, starting with https://' }),
  /** Who wrote or publishes it: "Redis", "Martin Kleppmann", "Redisson". */
  by: z.string().min(1).optional(),
  /** What the learner will find there, or what this lesson takes from it. */
  note: z.string().min(1).optional(),
});

export type Source = z.output<typeof sourceSchema>;

/** The YAML between the two `---` lines at the top of a lesson. */
export const frontmatterSchema = z.strictObject({
  slug: slugSchema,
  title: z.string().min(1),
  /** A course id from lessons/courses.yaml. */
  course: z.string().min(1),
  /** Position within the course; lessons are listed in this order. */
  order: z.number().int().positive(),
  /** Minutes a learner needs, including the scenarios. */
  readTime,
  summary: z.string().min(1),
  /** Slugs of lessons to read first. */
  prerequisites: z.array(slugSchema).default([]),
  /** Slugs this lesson used to have, so a learner's saved progress follows a rename. */
  formerSlugs: z.array(slugSchema).default([]),
  /** Shown at the end as "Sources and further reading"; lessons:check requires at least one. */
  sources: z.array(sourceSchema).default([]),
  /** true: shown by npm run dev and the preview, left out of the build (and of links from published lessons). */
  draft: z.boolean().optional(),
});

export type Frontmatter = z.output<typeof frontmatterSchema>;

/** The frontmatter's YAML text and where it sits; the body keeps its original line numbers. */
export type FrontmatterSplit =
  | { ok: true; yaml: string; yamlLine: number; body: string }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Splits `---\n<yaml>\n---\n<markdown>`. The body is returned with the frontmatter lines blanked
 * rather than removed, so positions that remark reports in the body are already file lines.
 */
export function splitFrontmatter(text: string, file: string): FrontmatterSplit {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trimEnd() !== '---') {
    return {
      ok: false,
      diagnostic: { file, line: 1, col: 1, message: "a lesson must start with a '---' line opening its frontmatter", hint: 'put slug, title, course, order, readTime and summary between two --- lines' },
    };
  }
  const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (close < 0) {
    return {
      ok: false,
      diagnostic: { file, line: 1, col: 1, message: "the frontmatter has no closing '---'", hint: 'add a line with just --- after the last frontmatter key' },
    };
  }
  const yaml = lines.slice(1, close).join('\n');
  const body = [...lines.slice(0, close + 1).map(() => ''), ...lines.slice(close + 1)].join('\n');
  return { ok: true, yaml, yamlLine: 2, body };
}
