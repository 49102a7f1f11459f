import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Import cycles among the TypeScript files under `root`, type-only imports included, each as
 * a list of paths relative to `cwd`. ESLint's import-x/no-cycle skips type-only imports (they
 * vanish at run time), but a type cycle still makes two modules one for a reader: neither can
 * be understood or moved alone. Tests and fixtures are left out, as in the shared cycles tool.
 */
export function importCycles(
  root: string,
  { cwd = process.cwd(), include = isModule }: { cwd?: string; include?: (file: string) => boolean } = {},
): string[][] {
  const files = walk(resolve(root)).filter(include);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles.map((i) => resolveImport(file, i.fileName, known)).filter((f): f is string => f !== null),
    );
  }
  return stronglyConnected(graph)
    .filter((component) => component.length > 1)
    .map((component) => component.map((f) => relative(cwd, f)).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A module of the app: TypeScript, not a test, a bench, a declaration or a fixture. */
export function isModule(file: string): boolean {
  return (
    /\.(ts|tsx)$/.test(file) &&
    !/\.(test|bench)\.tsx?$/.test(file) &&
    !file.endsWith('.d.ts') &&
    !/[/\\]fixtures[/\\]/.test(file)
  );
}

/** Every file under `dir`. */
export function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The file a relative import names, among `known` files, or null (a package, or a file left out). */
export function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (known.has(candidate)) return candidate;
  return null;
}

/** Tarjan's strongly connected components. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
}
