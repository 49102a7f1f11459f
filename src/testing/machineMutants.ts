import ts from 'typescript';

/**
 * Test support: the mutants of an XState machine's source, for `npm run mutants`
 * (mutationScore.ts). Each mutant is the file with one change to the machine's definition,
 * found with the TypeScript compiler's parser, so a mutant is always a change a person could
 * have made by mistake, and one the machine's tests should notice.
 *
 * The operators, and why each is there:
 * - `target`: a transition's target swapped for each other state of its region (the client
 *   goes to the wrong step), or removed (it stays where it is).
 * - `event`: an event key renamed (the state no longer reacts to that event).
 * - `action`: one entry removed from an `actions`, `entry` or `exit` list, or the whole
 *   property when it names one action (an effect the state must run is skipped).
 * - `guard`: a guard removed (the branch is always taken) or negated (taken exactly when it
 *   should not be).
 * - `branch`: one transition of a guarded list removed, or an `after`/`always` entry removed
 *   (a case the machine must handle is forgotten).
 * - `reenter`: a transition's `reenter` flag flipped (a state is left and entered again, or
 *   not, so its entry actions run again, or not).
 * - `literal`, `operator`: in guards and `assign` expressions, a boolean flipped, a number
 *   changed (0 to 1, any other to 0), a comparison or logical operator turned into its
 *   neighbour (`<` and `<=`, `>` and `>=`, `===` and `!==`, `&&` and `||`), `+` and `-`
 *   swapped, a `!` dropped (an off-by-one count, an inverted condition).
 * - `assign`: one property of an `assign({...})` removed (a count that never moves).
 *
 * Nothing else is mutated: effects are bound outside the machine, and helpers and types
 * are not the machine's decisions.
 */

/** One mutant: the file's text with one edit, and a description stable across runs. */
export interface Mutant {
  /** Which operator made it (see above). */
  operator: string;
  /** Where, and what changed, e.g. `in closed, FAILED: target 'open' → 'halfOpen'`. */
  description: string;
  /** The 1-based line of the change. */
  line: number;
  /** The whole mutated source. */
  source: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
  operator: string;
  what: string;
  /** Whether the edit needs `not` imported from xstate. */
  needsNot?: boolean;
}

/** A state node: its path from the root, and its child states' names. */
interface StateNode {
  path: string[];
  children: string[];
}

const nameOf = (name: ts.PropertyName): string =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText();

function propsOf(obj: ts.ObjectLiteralExpression): Map<string, ts.PropertyAssignment> {
  const out = new Map<string, ts.PropertyAssignment>();
  for (const p of obj.properties) if (ts.isPropertyAssignment(p)) out.set(nameOf(p.name), p);
  return out;
}

/** Unwraps `x as const` and parentheses. */
function bare(node: ts.Expression): ts.Expression {
  while (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node)) {
    node = node.expression;
  }
  return node;
}

/** The span that removes `node` from its list (object properties or array elements), with its comma. */
function removalSpan(node: ts.Node, list: ts.NodeArray<ts.Node>, source: ts.SourceFile): [number, number] {
  const i = list.indexOf(node);
  const next = list[i + 1];
  const previous = list[i - 1];
  if (next) return [node.getStart(source), next.getStart(source)];
  if (previous) return [previous.getEnd(), node.getEnd()];
  return [node.getStart(source), node.getEnd()];
}

/** Walks one machine file and collects its edits. */
class Walker {
  readonly edits: Edit[] = [];
  private readonly nodes = new Map<string, StateNode>();
  private machineId = '';
  private readonly shared = new Set<string>();

  constructor(private readonly source: ts.SourceFile) {}

  private text(node: ts.Node): string {
    return node.getText(this.source);
  }

  private add(node: ts.Node | [number, number], text: string, operator: string, what: string, needsNot = false) {
    const [start, end] = Array.isArray(node) ? node : [node.getStart(this.source), node.getEnd()];
    this.edits.push({ start, end, text, operator, what, needsNot });
  }

  private remove(node: ts.Node, list: ts.NodeArray<ts.Node>, operator: string, what: string) {
    this.add(removalSpan(node, list, this.source), '', operator, what);
  }

  /** Finds `setup({...}).createMachine({...})` and walks both halves. */
  walk(): void {
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'createMachine'
      ) {
        const [first] = node.arguments;
        const config = first && bare(first);
        const setupCall = node.expression.expression;
        const setupConfig = ts.isCallExpression(setupCall) ? setupCall.arguments[0] : undefined;
        if (config && ts.isObjectLiteralExpression(config)) {
          const id = propsOf(config).get('id')?.initializer;
          this.machineId = id && ts.isStringLiteral(id) ? id.text : '';
          this.index(config, []);
          this.state(config, []);
        }
        if (setupConfig && ts.isObjectLiteralExpression(setupConfig)) this.setup(setupConfig);
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(this.source);
  }

  /** Records every state node and its children, so a target can be swapped within its region. */
  private index(obj: ts.ObjectLiteralExpression, path: string[]) {
    const states = propsOf(obj).get('states')?.initializer;
    const children: string[] = [];
    if (states && ts.isObjectLiteralExpression(states)) {
      for (const [name, p] of propsOf(states)) {
        children.push(name);
        if (ts.isObjectLiteralExpression(p.initializer)) this.index(p.initializer, [...path, name]);
      }
    }
    this.nodes.set(path.join('.'), { path, children });
  }

  private state(obj: ts.ObjectLiteralExpression, path: string[]) {
    const where = path.length === 0 ? 'the machine' : path.join('.');
    for (const [key, p] of propsOf(obj)) {
      const init = p.initializer;
      if (key === 'states' && ts.isObjectLiteralExpression(init)) {
        for (const [name, child] of propsOf(init)) {
          if (ts.isObjectLiteralExpression(child.initializer)) this.state(child.initializer, [...path, name]);
        }
      } else if ((key === 'on' || key === 'after') && ts.isObjectLiteralExpression(init)) {
        for (const [event, t] of propsOf(init)) {
          const label = key === 'after' ? `after ${event}` : event;
          if (key === 'on') this.add(t.name, `${event}_MUTANT`, 'event', `in ${where}: event ${event} renamed`);
          else this.remove(t, init.properties, 'branch', `in ${where}: ${label} removed`);
          this.transitions(t.initializer, path, `in ${where}, ${label}`);
        }
      } else if (key === 'always') {
        this.remove(p, obj.properties, 'branch', `in ${where}: always removed`);
        this.transitions(init, path, `in ${where}, always`);
      } else if (key === 'entry' || key === 'exit') {
        this.actions(p, obj, `in ${where}, ${key}`);
      }
    }
  }

  /** A transition, a list of them, or a const naming a list (stepClient's onToNextStep). */
  private transitions(expr: ts.Expression, path: string[], where: string) {
    const node = bare(expr);
    if (ts.isIdentifier(node)) {
      // A shared list is mutated once, and named as itself rather than by its first user.
      const declared = this.constant(node.text);
      if (declared && !this.shared.has(node.text)) {
        this.shared.add(node.text);
        this.transitions(declared, path, `in ${node.text}`);
      }
    } else if (ts.isStringLiteral(node)) {
      this.targets(node, path, where, () => this.add(node, '{}', 'target', `${where}: target '${node.text}' removed`));
    } else if (ts.isArrayLiteralExpression(node)) {
      node.elements.forEach((element, i) => {
        if (node.elements.length > 1)
          this.remove(element, node.elements, 'branch', `${where}: branch ${i + 1} removed`);
        this.transitions(element, path, `${where} [${i + 1}]`);
      });
    } else if (ts.isObjectLiteralExpression(node)) {
      for (const [key, p] of propsOf(node)) {
        const init = p.initializer;
        if (key === 'target' && ts.isStringLiteral(init)) {
          this.targets(init, path, where, () =>
            this.remove(p, node.properties, 'target', `${where}: target '${init.text}' removed`),
          );
        } else if (key === 'guard') {
          const guard = this.text(init);
          this.remove(p, node.properties, 'guard', `${where}: guard ${guard} removed`);
          this.add(init, `not(${guard})`, 'guard', `${where}: guard ${guard} negated`, true);
        } else if (key === 'actions') {
          this.actions(p, node, where);
        } else if (key === 'reenter') {
          this.literals(init, `${where}, reenter`, 'reenter');
        }
      }
    }
  }

  /** The initializer of a top-level `const name = ...` in this file. */
  private constant(name: string): ts.Expression | undefined {
    for (const statement of this.source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return d.initializer;
      }
    }
    return undefined;
  }

  /** Swaps a target for each other state of its region, and removes it. */
  private targets(literal: ts.StringLiteral, path: string[], where: string, removeTarget: () => void) {
    const target = literal.text;
    const absolute = target.startsWith('#');
    const parts = absolute ? target.slice(1).split('.').slice(1) : [...path.slice(0, -1), target];
    const region = this.nodes.get(parts.slice(0, -1).join('.'));
    const last = parts[parts.length - 1];
    for (const other of region?.children ?? []) {
      if (other === last) continue;
      const swapped = absolute ? `#${[this.machineId, ...parts.slice(0, -1), other].join('.')}` : other;
      this.add(literal, `'${swapped}'`, 'target', `${where}: target '${target}' → '${swapped}'`);
    }
    removeTarget();
  }

  /** One entry removed from an action list, or the property when it names one action. */
  private actions(p: ts.PropertyAssignment, owner: ts.ObjectLiteralExpression, where: string) {
    const list = bare(p.initializer);
    if (ts.isArrayLiteralExpression(list) && list.elements.length > 1) {
      for (const element of list.elements) {
        this.remove(element, list.elements, 'action', `${where}: action ${this.text(element)} removed`);
      }
    } else {
      this.remove(p, owner.properties, 'action', `${where}: ${nameOf(p.name)} ${this.text(list)} removed`);
    }
  }

  /** The setup's guards and assign expressions. */
  private setup(obj: ts.ObjectLiteralExpression) {
    const props = propsOf(obj);
    const guards = props.get('guards')?.initializer;
    if (guards && ts.isObjectLiteralExpression(guards)) {
      for (const [name, g] of propsOf(guards)) this.literals(g.initializer, `guard ${name}`, 'literal');
    }
    const actions = props.get('actions')?.initializer;
    if (actions && ts.isObjectLiteralExpression(actions)) {
      for (const [name, a] of propsOf(actions)) {
        const call = a.initializer;
        if (!ts.isCallExpression(call) || this.text(call.expression) !== 'assign') continue;
        const assigned = call.arguments[0];
        if (!assigned || !ts.isObjectLiteralExpression(assigned)) continue;
        for (const [key, q] of propsOf(assigned)) {
          this.remove(q, assigned.properties, 'assign', `action ${name}: assign of ${key} removed`);
          this.literals(q.initializer, `action ${name}, ${key}`, 'literal');
        }
      }
    }
  }

  /** Boolean and number literals, comparison, logical and +/- operators, and `!`, anywhere in `node`. */
  private literals(node: ts.Node, where: string, operator: string) {
    const flips: Partial<Record<ts.SyntaxKind, string>> = {
      [ts.SyntaxKind.LessThanToken]: '<=',
      [ts.SyntaxKind.LessThanEqualsToken]: '<',
      [ts.SyntaxKind.GreaterThanToken]: '>=',
      [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
      [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
      [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
      [ts.SyntaxKind.AmpersandAmpersandToken]: '||',
      [ts.SyntaxKind.BarBarToken]: '&&',
      [ts.SyntaxKind.PlusToken]: '-',
      [ts.SyntaxKind.MinusToken]: '+',
    };
    const visit = (n: ts.Node) => {
      if (n.kind === ts.SyntaxKind.TrueKeyword || n.kind === ts.SyntaxKind.FalseKeyword) {
        const flipped = n.kind === ts.SyntaxKind.TrueKeyword ? 'false' : 'true';
        this.add(n, flipped, operator, `${where}: ${this.text(n)} → ${flipped}`);
      } else if (ts.isNumericLiteral(n)) {
        const changed = n.text === '0' ? '1' : '0';
        this.add(n, changed, 'literal', `${where}: ${n.text} → ${changed}`);
      } else if (ts.isBinaryExpression(n) && flips[n.operatorToken.kind] !== undefined) {
        const to = flips[n.operatorToken.kind]!;
        this.add(n.operatorToken, to, 'operator', `${where}: \`${this.text(n)}\` with ${to}`);
      } else if (ts.isPrefixUnaryExpression(n) && n.operator === ts.SyntaxKind.ExclamationToken) {
        this.add(
          [n.getStart(this.source), n.operand.getStart(this.source)],
          '',
          'operator',
          `${where}: \`${this.text(n)}\` without !`,
        );
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
  }
}

/** Adds `not` to the file's `import { ... } from 'xstate'` for a negated guard. */
function withNot(text: string): string {
  return text.replace(/import \{([^}]*)\} from 'xstate';/, (whole, names: string) =>
    /\bnot\b/.test(names) ? whole : `import {${names}, not } from 'xstate';`,
  );
}

/**
 * Every mutant of the machine defined in `text` (a file's source), one edit each, in the order
 * of the file; the same edit reached twice (a shared transition list) is made once.
 */
export function machineMutants(fileName: string, text: string): Mutant[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const walker = new Walker(source);
  walker.walk();
  const seen = new Set<string>();
  const out: Mutant[] = [];
  for (const edit of [...walker.edits].sort((a, b) => a.start - b.start)) {
    const key = `${edit.start}:${edit.end}:${edit.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const mutated = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    out.push({
      operator: edit.operator,
      description: edit.what,
      line: source.getLineAndCharacterOfPosition(edit.start).line + 1,
      source: edit.needsNot ? withNot(mutated) : mutated,
    });
  }
  return out;
}
