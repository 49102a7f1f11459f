import { z } from 'zod';
import type { Diagnostic } from '../scenario/diagnostic';
import { validateYaml } from '../scenario/text/schemaIssues';
import { parseYamlSource } from '../scenario/text/yamlSource';
import type { Course } from './types';

export const courseSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and dashes')
    .meta({ description: 'The name lessons join with `course:` in their frontmatter.', examples: ['redis-locks'] }),
  title: z
    .string()
    .min(1)
    .meta({ description: 'The heading of the course on the course map.', examples: ['Distributed locks with Redis'] }),
  order: z
    .number()
    .int()
    .positive()
    .meta({ description: 'Position on the course map; courses are listed in this order.', examples: [1] }),
  description: z
    .string()
    .min(1)
    .meta({
      description: 'A few sentences under the title on the course map.',
      examples: ['Take a lease on Redis, pause a barista, and watch two writers collide.'],
    }),
});

/** lessons/courses.yaml: a list of courses, each named by the `course:` of its lessons. */
export const coursesSchema = z.array(courseSchema);

/** Parses lessons/courses.yaml, reporting problems with file:line:col. */
export function parseCourses(text: string, file: string): { courses: Course[]; diagnostics: Diagnostic[] } {
  const origin = { file, line: 1 };
  const source = parseYamlSource(text, origin);
  const result = validateYaml(source, coursesSchema, origin);
  if (!result.ok) return { courses: [], diagnostics: result.diagnostics };
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  result.value.forEach((c, i) => {
    if (seen.has(c.id))
      diagnostics.push({
        file,
        ...source.locate([i, 'id']),
        message: `duplicate course id '${c.id}'`,
        hint: 'each course needs its own id',
      });
    seen.add(c.id);
  });
  return { courses: [...result.value].sort((a, b) => a.order - b.order), diagnostics };
}
