import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { hoverTooltip, type Tooltip } from '@codemirror/view';
import schemaJson from '../../../lessons/scenario.schema.json';
import { commandTable } from '../../redis/commandTable';
import { describeType, keysAt, schemaNodesAt, valuesAt, type SchemaNode } from '../../scenario/schema/schemaPath';
import { keyDoc, valueDoc } from './keyDocs';
import { cursorContext } from './yamlContext';

const SCHEMA = schemaJson as unknown as SchemaNode;

/** Command names as authors write them, upper case, with their arity as Redis states it. */
const COMMANDS: Completion[] = [...commandTable.values()]
  .map((spec) => ({
    label: spec.name.toUpperCase(),
    type: 'function',
    detail:
      spec.arity > 0 ? `${spec.arity - 1} argument${spec.arity === 2 ? '' : 's'}` : `${-spec.arity - 1}+ arguments`,
  }))
  .sort((a, b) => a.label.localeCompare(b.label));

/**
 * Completion from the scenario JSON Schema: the keys a mapping accepts at the cursor (required
 * ones first, each with its doc line), the values an enum key takes, and Redis command names as
 * the first word of a `redis:` step.
 */
export function scenarioCompletions(context: CompletionContext): CompletionResult | null {
  const text = context.state.doc.sliceString(0, context.pos);
  const ctx = cursorContext(text, context.pos);
  if (!ctx) return null;
  const typed = context.state.sliceDoc(ctx.from, context.pos);
  if (!typed && !context.explicit && ctx.kind !== 'value') return null;

  if (ctx.kind === 'key') {
    const options = keysAt(SCHEMA, ctx.path, ctx.siblings).map((k): Completion => ({
      label: k.key,
      apply: `${k.key}: `,
      type: 'property',
      detail: k.required ? 'required' : describeType(branchesOf(k.schema)),
      ...(keyDoc(ctx.path, k.key) ? { info: keyDoc(ctx.path, k.key) } : {}),
      boost: k.required ? 1 : 0,
    }));
    return options.length ? { from: ctx.from, options, validFor: /^[\w-]*$/ } : null;
  }
  if (ctx.kind === 'item') {
    const last = ctx.path[ctx.path.length - 1];
    if (ctx.path[ctx.path.length - 2] === 'redis' && last === 0)
      return { from: ctx.from, options: COMMANDS, validFor: /^\w*$/ };
    const values = valuesAt(SCHEMA, ctx.path);
    return values.length
      ? { from: ctx.from, options: values.map((v) => valueCompletion(v)), validFor: /^[\w-]*$/ }
      : null;
  }
  const values = valuesAt(SCHEMA, ctx.path);
  if (!values.length) return null;
  return { from: ctx.from, options: values.map((v) => valueCompletion(v)), validFor: /^[\w-]*$/ };
}

function valueCompletion(value: string): Completion {
  const doc = valueDoc(value);
  return { label: value, type: 'enum', ...(doc ? { info: doc } : {}) };
}

function branchesOf(node: SchemaNode): SchemaNode[] {
  return node.anyOf ?? node.oneOf ?? [node];
}

/** The doc a key or value at `pos` has: its line, its accepted type, and its fixed values. */
function hoverAt(text: string, pos: number): { from: number; to: number; title: string; body: string } | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const lineEnd = text.indexOf('\n', pos) === -1 ? text.length : text.indexOf('\n', pos);
  const line = text.slice(lineStart, lineEnd);
  const at = pos - lineStart;
  let from = at;
  let to = at;
  while (from > 0 && /[\w-]/.test(line[from - 1]!)) from--;
  while (to < line.length && /[\w-]/.test(line[to]!)) to++;
  if (from === to) return null;
  const word = line.slice(from, to);
  const isKey = line[to] === ':';
  // Ask what was being typed just before the word ended: the same walk as completion.
  const ctx = cursorContext(text.slice(0, lineStart + to), lineStart + to);
  if (!ctx) return null;
  const span = { from: lineStart + from, to: lineStart + to };
  if (isKey && ctx.kind === 'key') {
    const nodes = schemaNodesAt(SCHEMA, [...ctx.path, word]);
    if (!nodes.length) return null;
    const doc = keyDoc(ctx.path, word);
    const values = valuesAt(SCHEMA, [...ctx.path, word]);
    const type = values.length ? `One of: ${values.join(', ')}.` : `Takes ${describeType(nodes)}.`;
    return { ...span, title: word, body: [doc, type].filter(Boolean).join(' ') };
  }
  if (ctx.kind === 'item' && ctx.path[ctx.path.length - 2] === 'redis' && ctx.path[ctx.path.length - 1] === 0) {
    const spec = commandTable.get(word.toLowerCase());
    return spec
      ? {
          ...span,
          title: word.toUpperCase(),
          body: `A Redis command the simulator runs (arity ${spec.arity}: ${spec.arity > 0 ? 'exactly' : 'at least'} ${Math.abs(spec.arity)} words with its name).`,
        }
      : null;
  }
  const doc = valueDoc(word);
  return doc ? { ...span, title: word, body: doc } : null;
}

/** Hover docs for keys, fixed values and Redis commands. */
export const scenarioHover = hoverTooltip((view, pos): Tooltip | null => {
  const found = hoverAt(view.state.doc.toString(), pos);
  if (!found) return null;
  return {
    pos: found.from,
    end: found.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'workbench-hover';
      // Named as what it is, so that a screen reader (and a test) can find the doc it shows.
      dom.setAttribute('role', 'tooltip');
      const title = document.createElement('strong');
      title.textContent = found.title;
      const body = document.createElement('p');
      body.textContent = found.body;
      dom.append(title, body);
      return { dom };
    },
  };
});

export { hoverAt };
