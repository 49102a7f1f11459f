import { describe, expect, it } from 'vitest';
import { jsonSchemaFiles } from './jsonSchema';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking generated JSON in assertions
type Json = any;

/**
 * Names every property under `node` (nested objects, array items, unions) that lacks a
 * description or an example, as a path an instructor can find in the YAML: `sources[].url`.
 * An editor's hover shows exactly these words, so a field without them is a blank tooltip.
 */
function undocumented(node: Json, path = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((n) => undocumented(n, path));
  const own = Object.entries<Json>(node.properties ?? {}).flatMap(([key, field]) => {
    const at = path ? `${path}.${key}` : key;
    const gaps = [
      ...(field.description ? [] : [`${at} (no description)`]),
      ...(field.examples?.length ? [] : [`${at} (no example)`]),
    ];
    return [...gaps, ...undocumented(field, at)];
  });
  const nested = ['items', 'anyOf', 'oneOf', 'allOf'].flatMap((k) =>
    undocumented(node[k], k === 'items' ? `${path}[]` : path),
  );
  return [...own, ...nested];
}

const files = jsonSchemaFiles();
const parse = (name: string): Json => JSON.parse(files[name]!);

describe('every field an instructor writes has hover docs from the zod schema', () => {
  it('the lesson frontmatter: every key, sources included, has a description and an example', () => {
    const { $defs: _blocks, ...frontmatter } = parse('lesson.schema.json');
    expect(undocumented(frontmatter)).toEqual([]);
  });

  it('courses.yaml: every key has a description and an example', () => {
    expect(undocumented(parse('courses.schema.json'))).toEqual([]);
  });

  it('a scenario: its own keys, every client key and every resource key have a description and an example', () => {
    const scenario = parse('scenario.schema.json');
    const keysOf = (node: Json, at: string): string[] =>
      undocumented(
        {
          properties: Object.fromEntries(
            Object.entries<Json>(node.properties).map(([k, v]) => [
              k,
              { ...v, properties: undefined, items: undefined, anyOf: undefined },
            ]),
          ),
        },
        at,
      );
    expect(keysOf(scenario, '')).toEqual([]);
    expect(keysOf(scenario.properties.clients.items, 'clients[]')).toEqual([]);
    expect(keysOf(scenario.properties.resource, 'resource')).toEqual([]);
  });

  it("a scenario's redis, network, script, checks and expect, and a client's retry, breaker and redlock: every nested key has a description and an example", () => {
    const scenario = parse('scenario.schema.json');
    const client = scenario.properties.clients.items.properties;
    const parts = {
      redis: scenario.properties.redis,
      network: scenario.properties.network,
      script: scenario.properties.script,
      checks: scenario.properties.checks,
      expect: scenario.properties.expect,
      'clients[].retry': client.retry,
      'clients[].breaker': client.breaker,
      'clients[].redlock': client.redlock,
    };
    expect(Object.entries(parts).flatMap(([at, node]) => undocumented(node, at))).toEqual([]);
  });

  it('a quiz block: every key of every kind, options and statements included, has a description and an example', () => {
    expect(undocumented(parse('lesson.schema.json').$defs.quiz)).toEqual([]);
  });

  it('a reflect block: every key has a description and an example', () => {
    expect(undocumented(parse('lesson.schema.json').$defs.reflect)).toEqual([]);
  });

  it.each(['after', 'checklist', 'claims', 'compare', 'fill-in', 'match', 'workbench'])(
    'a %s block: every key, nested lists included, has a description and an example',
    (kind) => {
      expect(undocumented(parse('lesson.schema.json').$defs[kind])).toEqual([]);
    },
  );

  it('a scenario or dashboard block, inline or by ref: every key at every depth has a description and an example', () => {
    const { $defs } = parse('lesson.schema.json');
    expect([...undocumented($defs.scenario, 'scenario'), ...undocumented($defs.dashboard, 'dashboard')]).toEqual([]);
    expect(undocumented(parse('scenario.schema.json'))).toEqual([]);
  });

  it('the whole lesson schema, every block included, leaves no key undocumented', () => {
    const { $defs, ...frontmatter } = parse('lesson.schema.json');
    expect(Object.entries<Json>($defs).flatMap(([kind, node]) => undocumented(node, kind))).toEqual([]);
    expect(undocumented(frontmatter)).toEqual([]);
  });

  it('the walker names a field that lacks them (so the checks above can fail)', () => {
    expect(
      undocumented({
        properties: { a: { description: 'x', examples: [1] }, b: { type: 'array', items: { properties: { c: {} } } } },
      }),
    ).toEqual(['b (no description)', 'b (no example)', 'b[].c (no description)', 'b[].c (no example)']);
  });

  it('the generated files carry the same words (npm run schemas has been run)', async () => {
    const { readFileSync } = await import('node:fs');
    for (const [name, text] of Object.entries(files)) expect(readFileSync(`lessons/${name}`, 'utf8'), name).toBe(text);
  });
});
