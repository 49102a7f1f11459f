import { LuaFactory, type LuaWasm } from 'wasmoon';
import { defaultLuaLimits, type LuaLimits } from './luaLimits';
import { LuaScriptEngine } from './luaScriptEngine';

export { LuaScriptEngine } from './luaScriptEngine';
export { defaultLuaLimits } from './luaLimits';
export type { LuaLimits } from './luaLimits';
export type { LuaRunStats } from './luaScriptEngine';

export interface LoadLuaEngineOptions extends Partial<LuaLimits> {
  /**
   * Where wasmoon's glue.wasm is served. Browsers must pass it (see ./wasmUrl.ts): wasmoon
   * would otherwise fetch it from a CDN. Node leaves it out and wasmoon reads node_modules.
   */
  wasmUrl?: string;
}

// One WebAssembly module per URL, shared by every engine: loading it is the slow part.
const modules = new Map<string, Promise<LuaWasm>>();

/** Loads the WebAssembly Lua module once (cached) and returns a new engine on it. */
export async function loadLuaEngine(options: LoadLuaEngineOptions = {}): Promise<LuaScriptEngine> {
  const key = options.wasmUrl ?? '';
  let module = modules.get(key);
  if (!module) {
    module = new LuaFactory(options.wasmUrl).getLuaModule();
    modules.set(key, module);
    module.catch(() => modules.delete(key));
  }
  return new LuaScriptEngine(await module, {
    instructionBudget: options.instructionBudget ?? defaultLuaLimits.instructionBudget,
    memoryLimitBytes: options.memoryLimitBytes ?? defaultLuaLimits.memoryLimitBytes,
  });
}
