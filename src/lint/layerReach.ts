import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { isModule, resolveImport, walk } from './importCycles';

/** The layer table (layers.json): what each folder may import of ours, and why. */
export interface LayerTable {
  folders: string[];
  layers: Record<string, { may: string[]; why: string }>;
}

/**
 * Files of a layer that reach, through other folders' files, a file their layer may not import:
 * ESLint's layer rule sees only direct imports, so `cli → bench → ui` passed it while the CLI
 * depended on the UI. Each problem names the path. Only imports that run count: a type-only
 * import (the timeline's Verdict type) ties no code together. Test support (tests, benches' own `*.bench.ts`,
 * `testing/`, `differential/`, fixtures) is left out, as in the lint rule.
 */
export function layerReach(root: string, table: LayerTable, cwd = process.cwd()): string[] {
  const base = resolve(root);
  const files = walk(base).filter((f) => isModule(f) && !isTestSupport(relative(base, f)));
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files)
    imports.set(
      file,
      runtimeImports(file)
        .map((spec) => resolveImport(file, spec, known))
        .filter((f): f is string => f !== null),
    );
  const where = (file: string) => relative(base, file).split(sep).join('/');
  const problems: string[] = [];
  for (const [layer, { why }] of Object.entries(table.layers)) {
    const may = reachable(table, layer);
    const allowed = (file: string) => {
      const path = where(file).replace(/\.tsx?$/, '');
      const folder = path.split('/')[0]!;
      return !table.folders.includes(folder) || may.has(folder) || may.has(path);
    };
    for (const start of files.filter((f) => where(f).startsWith(`${layer}/`))) {
      const via = new Map<string, string>([[start, '']]);
      const queue = [start];
      while (queue.length) {
        const file = queue.shift()!;
        for (const next of imports.get(file) ?? []) {
          if (via.has(next)) continue;
          via.set(next, file);
          if (!allowed(next)) {
            const path: string[] = [];
            for (let at: string = next; at; at = via.get(at)!) path.unshift(relative(cwd, at));
            problems.push(`${path.join(' → ')}: ${why}`);
            continue;
          }
          queue.push(next);
        }
      }
    }
  }
  return problems.sort();
}

/**
 * What `layer` may reach: itself, what it may import, and what those may import in turn. A
 * folder the table does not restrict (a bench) passes nothing on: reaching on through it is
 * reaching past the table.
 */
function reachable(table: LayerTable, layer: string): Set<string> {
  const out = new Set([layer]);
  const queue = [layer];
  while (queue.length) {
    for (const next of table.layers[queue.shift()!]?.may ?? []) {
      if (out.has(next)) continue;
      out.add(next);
      queue.push(next);
    }
  }
  return out;
}

/** What `file` imports that stays at run time: static imports and exports that are not type-only, and `import()`. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      !node.isTypeOnly
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function isTestSupport(path: string): boolean {
  return /(^|\/)(testing|differential|fixtures)\//.test(path.split(sep).join('/'));
}
