import { z } from 'zod';

/**
 * A ```scenario block that points at a sidecar file instead of holding the YAML inline.
 * The path is relative to lessons/, e.g. `ref: scenarios/paused-barista.yaml`.
 */
export const scenarioRefSchema = z.strictObject({
  ref: z
    .string()
    .regex(/^scenarios\/[\w.-]+\.ya?ml$/, 'write it as scenarios/<name>.yaml (relative to lessons/)')
    .meta({
      description:
        'A sidecar scenario file, relative to the lessons folder, used instead of writing the scenario inline.',
      examples: ['scenarios/paused-barista.yaml'],
    }),
});

/** True when a scenario block's YAML is a reference (a mapping with a `ref` key) rather than inline. */
export function looksLikeRef(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && 'ref' in value;
}
