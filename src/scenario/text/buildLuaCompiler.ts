import { loadLuaEngine } from '../../redis/lua';
import { rememberingCompiler, type LuaCompiler } from './luaSyntax';

let compiler: Promise<LuaCompiler> | undefined;

/**
 * The Lua compiler for the build's lessons plugin, as luaCompiler.ts gives everyone else. Vite
 * loads the plugin through a module runner that is closed once the config has loaded, so the
 * plugin cannot import the VM later: this module imports it statically. (The command-line tools
 * cannot: their `.lua` loader must be registered before the VM's modules load.)
 */
export function loadBuildLuaCompiler(): Promise<LuaCompiler> {
  compiler ??= loadLuaEngine().then((engine) => rememberingCompiler((body) => engine.compileError(body)));
  compiler.catch(() => (compiler = undefined));
  return compiler;
}
