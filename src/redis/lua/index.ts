import { defaultLuaLimits, type LuaLimits } from './luaLimits';
import { LuaScriptEngine } from './luaScriptEngine';
import { Lua51Vm } from './wasm/lua51Binding';

export { LuaScriptEngine } from './luaScriptEngine';
export { defaultLuaLimits } from './luaLimits';
export type { LuaLimits } from './luaLimits';
export type { LuaRunStats } from './luaScriptEngine';

export interface LoadLuaEngineOptions extends Partial<LuaLimits> {
  /**
   * Where redisLua51.wasm is served. Browser code passes the URL Vite bundles (see ./wasmUrl.ts);
   * Node leaves it out and the file is read next to this module.
   */
  wasmUrl?: string;
}

// One compiled WebAssembly module per URL, shared by every engine: compiling it is the slow part.
const modules = new Map<string, Promise<WebAssembly.Module>>();

async function compile(wasmUrl: string | undefined): Promise<WebAssembly.Module> {
  if (wasmUrl !== undefined) return WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
  // Node only. Not an import(): bundlers would pull `fs` into browser code, and the build's
  // plugins load this module through a Vite module runner that refuses imports once closed.
  const node = globalThis.process as
    (NodeJS.Process & { getBuiltinModule(id: 'node:fs/promises'): typeof import('node:fs/promises') }) | undefined;
  if (!node) throw new Error('loadLuaEngine: pass wasmUrl (the URL of redisLua51.wasm, see wasmUrl.ts) outside Node');
  const { readFile } = node.getBuiltinModule('node:fs/promises');
  // Beside this module (tsx, Vitest); from the repository root when esbuild bundled this file
  // elsewhere (npm run bench, the reality harness's child programs).
  const places = [
    new URL('./wasm/redisLua51.wasm', import.meta.url),
    `${process.cwd()}/src/redis/lua/wasm/redisLua51.wasm`,
  ];
  for (const place of places) {
    const bytes = await readFile(place).catch(() => null);
    if (bytes) return WebAssembly.compile(bytes);
  }
  throw new Error(
    `loadLuaEngine: redisLua51.wasm is at none of ${places.join(', ')}; run from the repository root, or pass wasmUrl`,
  );
}

/** Compiles the WebAssembly Lua module once (cached) and returns a new engine, with its own VM, on it. */
export async function loadLuaEngine(options: LoadLuaEngineOptions = {}): Promise<LuaScriptEngine> {
  const key = options.wasmUrl ?? '';
  let module = modules.get(key);
  if (!module) {
    module = compile(options.wasmUrl);
    modules.set(key, module);
    module.catch(() => modules.delete(key));
  }
  const limits: LuaLimits = {
    instructionBudget: options.instructionBudget ?? defaultLuaLimits.instructionBudget,
    memoryLimitBytes: options.memoryLimitBytes ?? defaultLuaLimits.memoryLimitBytes,
  };
  return new LuaScriptEngine(await Lua51Vm.create({ module: await module, ...limits }), limits);
}
