import { z } from 'zod';
import { scenarioSchema } from '../scenario/schema/schema';
import { checklistSchema } from './blocks/checklist';
import { afterSchema } from './blocks/after';
import { claimsSchema } from './blocks/claims';
import { compareSchema } from './blocks/compare';
import { fillInSchema } from './blocks/fillIn';
import { matchSchema } from './blocks/match';
import { quizSchema } from './blocks/quiz';
import { reflectSchema } from './blocks/reflect';
import { workbenchSchema } from './blocks/workbench';
import { scenarioRefSchema } from './blocks/scenarioRef';
import { coursesSchema } from './courses';
import { frontmatterSchema } from './frontmatter';

/** Generated JSON Schema files, by path relative to lessons/. */
export type SchemaFiles = Record<string, string>;

/**
 * zod drops `examples` from any schema that transforms when it writes the input side, taking them
 * for parsed values; ours are written as authors write them (`ttl: 10s`), so they go back in.
 * It drops the `default` of a transforming schema too (`horizon`, `startAt`, `work`), though the
 * checker applies it: the default is a parsed value, and every one of ours (milliseconds, as a
 * number) is also valid input, so it goes back in and an editor can say what leaving it out means.
 */
const keepExamples: NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override'] = ({ zodSchema, jsonSchema }) => {
  const examples = z.globalRegistry.get(zodSchema)?.examples;
  if (examples !== undefined && jsonSchema.examples === undefined) jsonSchema.examples = examples as unknown[];
  if (zodSchema instanceof z.ZodDefault && jsonSchema.default === undefined)
    jsonSchema.default = zodSchema.def.defaultValue as z.core.JSONSchema.BaseSchema['default'];
};

/** The input side of a schema, as JSON Schema: what an author writes, examples included. */
const inputSide = (schema: z.ZodType, unrepresentable: 'any' | 'throw' = 'throw') =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable, override: keepExamples });

// Authors write the input side of each schema (durations as "10s"), so that is what editors check.
const asInput = (schema: z.ZodType, title: string, description: string) => ({
  ...(z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: keepExamples,
  }) as Record<string, unknown>),
  title,
  description,
});

/**
 * The JSON Schemas editors use for autocomplete and checks: the lesson frontmatter (with each
 * fenced block's schema under $defs), sidecar scenarios and courses.yaml. Derived from the same
 * zod schemas the validator uses, so the two cannot drift apart.
 */
export function jsonSchemaFiles(): SchemaFiles {
  const lesson = {
    ...asInput(
      frontmatterSchema,
      'Lockstep lesson frontmatter',
      'The YAML between the --- lines at the top of lessons/NN-slug.md. $defs holds the schema of each fenced block.',
    ),
    $defs: {
      scenario: { anyOf: [inputSide(scenarioSchema, 'any'), inputSide(scenarioRefSchema)] },
      dashboard: { anyOf: [inputSide(scenarioSchema, 'any'), inputSide(scenarioRefSchema)] },
      quiz: inputSide(quizSchema),
      reflect: inputSide(reflectSchema),
      match: inputSide(matchSchema),
      checklist: inputSide(checklistSchema),
      'fill-in': inputSide(fillInSchema),
      compare: inputSide(compareSchema),
      workbench: inputSide(workbenchSchema),
      claims: inputSide(claimsSchema),
      after: inputSide(afterSchema),
    },
  };
  const files: Record<string, unknown> = {
    'lesson.schema.json': lesson,
    'scenario.schema.json': asInput(
      scenarioSchema,
      'Lockstep scenario',
      'A scenario in lessons/scenarios/*.yaml or in a ```scenario block.',
    ),
    'courses.schema.json': asInput(
      coursesSchema,
      'Lockstep courses',
      'lessons/courses.yaml: the courses lessons belong to.',
    ),
  };
  return Object.fromEntries(
    Object.entries(files).map(([name, schema]) => [name, `${JSON.stringify(schema, null, 2)}\n`]),
  );
}
