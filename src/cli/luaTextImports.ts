// Lets the CLIs that tsx runs import `.lua?raw` files as text, as Vite does for the app and
// Vitest (the Lua engine keeps its shim in .lua files, see src/redis/lua/shimSources.ts).
// tsx would otherwise evaluate the Lua text as CommonJS JavaScript. Import this module first:
// the hook applies to modules loaded after it, and the engine is loaded lazily.
import { register } from 'node:module';

const hooks = `
import { readFile } from 'node:fs/promises';
export async function load(url, context, nextLoad) {
  const path = url.split('?')[0];
  if (!path.endsWith('.lua')) return nextLoad(url, context);
  const text = await readFile(new URL(path), 'utf8');
  return { format: 'module', source: 'export default ' + JSON.stringify(text) + ';', shortCircuit: true };
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
