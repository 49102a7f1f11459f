import { describe, expect, it } from 'vitest';
import { jsonSchemaFiles } from './jsonSchema';

const files = jsonSchemaFiles();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking generated JSON in assertions
type Json = any;
const parse = (name: string): Json => JSON.parse(files[name]!);

describe('jsonSchemaFiles', () => {
  it('writes the three schema files editors use', () => {
    expect(Object.keys(files).sort()).toEqual(['courses.schema.json', 'lesson.schema.json', 'scenario.schema.json']);
  });

  it('describes the frontmatter as authors write it, rejecting unknown keys', () => {
    const lesson = parse('lesson.schema.json');
    expect(lesson.required).toEqual(['slug', 'title', 'course', 'order', 'readTime', 'summary']);
    expect(lesson.additionalProperties).toBe(false);
    expect(lesson.properties.readTime.type).toEqual(['number', 'string']);
    expect(Object.keys(lesson.$defs).sort()).toEqual([
      'after',
      'checklist',
      'claims',
      'compare',
      'dashboard',
      'fill-in',
      'match',
      'quiz',
      'reflect',
      'scenario',
      'workbench',
    ]);
  });

  it('accepts durations as strings or numbers in scenarios (the input side, before parsing)', () => {
    const scenario = parse('scenario.schema.json');
    expect(scenario.additionalProperties).toBe(false);
    expect(scenario.properties.clients.items.properties.ttl.type).toEqual(['number', 'string']);
  });
});

describe('defaults the checker applies', () => {
  it('are in the schema even where the field transforms what the author writes (durations)', () => {
    const scenario = parse('scenario.schema.json');
    const client = scenario.properties.clients.items.properties;
    // Left out, a run stops at 60 s, a client starts at 0 and works for 1 s (numbers are milliseconds).
    expect(scenario.properties.horizon.default).toBe(60_000);
    expect(client.startAt.default).toBe(0);
    expect(client.work.default).toBe(1000);
  });
});
