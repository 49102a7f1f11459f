/**
 * A small walker over the generated scenario JSON Schema (lessons/scenario.schema.json): which
 * schema nodes apply at a YAML path, which keys a mapping there accepts and which values a key
 * takes. The workbench editor builds its completion and hover docs on it. It reads the subset of
 * JSON Schema that `src/lessons/jsonSchema.ts` writes (properties, items, anyOf/oneOf, enum,
 * const); it is not a validator: zod stays the single judge of what a scenario may hold.
 */

/** The part of a JSON Schema node this walker reads. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
}

export type SchemaPath = readonly (string | number)[];

/** The alternatives of a node, with unions flattened: a key's schema may be "a name or settings". */
function branches(node: SchemaNode): SchemaNode[] {
  const alternatives = node.anyOf ?? node.oneOf;
  return alternatives ? alternatives.flatMap(branches) : [node];
}

/**
 * The schema nodes that describe the value at `path` (numbers index lists). A union of object
 * shapes (a script step's `do` kinds) yields every branch that has the key.
 */
export function schemaNodesAt(root: SchemaNode, path: SchemaPath): SchemaNode[] {
  let nodes = branches(root);
  for (const step of path) {
    nodes = nodes.flatMap((n): SchemaNode[] => {
      if (typeof step === 'number') return n.items ? branches(n.items) : [];
      const child = n.properties?.[step];
      return child ? branches(child) : [];
    });
    if (!nodes.length) break;
  }
  return nodes;
}

/** One key a mapping accepts. */
export interface KeyOption {
  key: string;
  schema: SchemaNode;
  required: boolean;
}

/**
 * The keys a mapping at `path` accepts, given the keys already written there (`siblings`): the
 * branches of a union are narrowed to those whose constant fields match (a step with `do: pause`
 * offers `for`, not `by`), and keys already present are left out.
 */
export function keysAt(
  root: SchemaNode,
  path: SchemaPath,
  siblings: Readonly<Record<string, string>> = {},
): KeyOption[] {
  const objects = schemaNodesAt(root, path).filter((n) => n.properties);
  const matching = objects.filter((n) =>
    Object.entries(n.properties!).every(
      ([k, v]) => v.const === undefined || siblings[k] === undefined || String(v.const) === siblings[k],
    ),
  );
  const out = new Map<string, KeyOption>();
  for (const n of matching.length ? matching : objects) {
    for (const [key, schema] of Object.entries(n.properties!)) {
      if (key in siblings || out.has(key)) continue;
      out.set(key, { key, schema, required: n.required?.includes(key) ?? false });
    }
  }
  return [...out.values()];
}

/** The fixed values the value at `path` may take (enum members and constants), in schema order. */
export function valuesAt(root: SchemaNode, path: SchemaPath): string[] {
  const values = schemaNodesAt(root, path).flatMap((n) => [
    ...(n.enum ?? []),
    ...(n.const !== undefined ? [n.const] : []),
  ]);
  return [...new Set(values.map(String))];
}

/** What a value at `path` is, in words: "a duration (number of ms, or text like 5s)", "one of: a, b". */
export function describeType(nodes: readonly SchemaNode[]): string {
  const kinds = new Set<string>();
  for (const n of nodes) {
    if (n.const !== undefined) kinds.add(`'${String(n.const)}'`);
    else if (n.enum) kinds.add(`one of: ${n.enum.map(String).join(', ')}`);
    else {
      const types = Array.isArray(n.type) ? n.type : n.type ? [n.type] : [];
      if (types.includes('number') && types.includes('string'))
        kinds.add('a duration (milliseconds, or text like 5s or 1500ms)');
      else
        for (const t of types)
          kinds.add(
            t === 'array' ? 'a list' : t === 'object' ? 'a mapping' : `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`,
          );
    }
  }
  return [...kinds].join(', or ');
}
