import { z } from 'zod';
import type { Diagnostic } from '../scenario/diagnostic';

export const slugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single dashes, e.g. paused-barista');

/** Minutes, written as a number (`7`) or with a unit (`7 min`); the description sits on the input side, which editors see. */
const readTime = z
  .union([z.number(), z.string()])
  .meta({ description: 'Minutes a learner needs, scenarios included: `7` or `"7 min"`.', examples: [8, '7 min'] })
  .transform((raw, ctx): number => {
    const match =
      typeof raw === 'number' ? [String(raw), String(raw)] : /^\s*(\d+)\s*(?:min|mins|minutes)?\s*$/.exec(raw);
    const minutes = match ? Number(match[1]) : NaN;
    if (!Number.isInteger(minutes) || minutes <= 0) {
      ctx.addIssue({ code: 'custom', message: `'${raw}' is not a reading time (write it like 7 or "7 min")` });
      return z.NEVER;
    }
    return minutes;
  });

/** Where a lesson's facts come from: a docs page, a library's source, the article an argument is from. */
export const sourceSchema = z.strictObject({
  title: z
    .string()
    .min(1)
    .meta({
      description: 'The title of the page or article, as its author wrote it.',
      examples: ['How to do distributed locking'],
    }),
  url: z.url({ protocol: /^https?$/, error: 'write the full address, starting with https://' }).meta({
    description: 'The full address, starting with https://.',
    examples: ['https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/'],
  }),
  by: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'Who wrote or publishes it.', examples: ['Martin Kleppmann (2016)', 'Redis'] }),
  note: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: 'What the learner will find there, or what this lesson takes from it.',
      examples: ['The paused client: a GC pause outlasts the lease.'],
    }),
});

export type Source = z.output<typeof sourceSchema>;

/** The YAML between the two `---` lines at the top of a lesson. */
export const frontmatterSchema = z.strictObject({
  slug: slugSchema.meta({
    description: "The lesson's address: lowercase letters, digits and single dashes.",
    examples: ['paused-barista'],
  }),
  title: z
    .string()
    .min(1)
    .meta({
      description: 'The heading learners see on the page and in the catalog.',
      examples: ['The paused barista'],
    }),
  course: z
    .string()
    .min(1)
    .meta({
      description: 'The id of a course in courses.yaml that this lesson belongs to.',
      examples: ['redis-locks'],
    }),
  order: z
    .number()
    .int()
    .positive()
    .meta({ description: 'Position within the course; lessons are listed in this order.', examples: [6] }),
  readTime,
  summary: z
    .string()
    .min(1)
    .meta({
      description: 'One or two sentences shown under the title in the catalog.',
      examples: ['A barista freezes mid-order and the lease runs out.'],
    }),
  prerequisites: z
    .array(slugSchema)
    .default([])
    .meta({ description: 'Slugs of lessons to read first.', examples: [['simplest-lock']] }),
  formerSlugs: z
    .array(slugSchema)
    .default([])
    .meta({
      description: "Slugs this lesson used to have, so a learner's saved progress follows a rename.",
      examples: [['old-paused-barista']],
    }),
  sources: z
    .array(sourceSchema)
    .default([])
    .meta({
      description: 'Shown at the end as "Sources and further reading"; lessons:check asks for at least one.',
      examples: [
        [
          {
            title: 'Distributed Locks with Redis',
            url: 'https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/',
            by: 'Redis',
          },
        ],
      ],
    }),
  hidden: z
    .boolean()
    .optional()
    .meta({
      description:
        'true: left out of the course list, the lesson pager and "Up next"; learners reach it by a link (from a lesson, the glossary, or one you share). Published, unlike a draft.',
      examples: [true],
    }),
  gated: z
    .boolean()
    .optional()
    .meta({
      description:
        'true: the lesson opens only once the learner has finished every prerequisite; until then its page lists the ones left, with links. Needs prerequisites.',
      examples: [true],
    }),
  draft: z
    .boolean()
    .optional()
    .meta({
      description:
        'true: shown by npm run dev and the preview, left out of the build and of links from published lessons.',
      examples: [true],
    }),
});

export type Frontmatter = z.output<typeof frontmatterSchema>;

/** The frontmatter's YAML text and where it sits; the body keeps its original line numbers. */
export type FrontmatterSplit =
  { ok: true; yaml: string; yamlLine: number; body: string } | { ok: false; diagnostic: Diagnostic };

/**
 * Splits `---\n<yaml>\n---\n<markdown>`. The body is returned with the frontmatter lines blanked
 * rather than removed, so positions that remark reports in the body are already file lines.
 */
export function splitFrontmatter(text: string, file: string): FrontmatterSplit {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trimEnd() !== '---') {
    return {
      ok: false,
      diagnostic: {
        file,
        line: 1,
        col: 1,
        message: "a lesson must start with a '---' line opening its frontmatter",
        hint: 'put slug, title, course, order, readTime and summary between two --- lines',
      },
    };
  }
  const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (close < 0) {
    return {
      ok: false,
      diagnostic: {
        file,
        line: 1,
        col: 1,
        message: "the frontmatter has no closing '---'",
        hint: 'add a line with just --- after the last frontmatter key',
      },
    };
  }
  const yaml = lines.slice(1, close).join('\n');
  const body = [...lines.slice(0, close + 1).map(() => ''), ...lines.slice(close + 1)].join('\n');
  return { ok: true, yaml, yamlLine: 2, body };
}
