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
  // Node only: a specifier in a variable keeps bundlers from pulling `fs` into browser code.
  const fs = 'node:fs/promises';
  const { readFile } = (await import(/* @vite-ignore */ fs)) as typeof import('node:fs/promises');
  return WebAssembly.compile(await readFile(new URL('./wasm/redisLua51.wasm', import.meta.url)));
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
