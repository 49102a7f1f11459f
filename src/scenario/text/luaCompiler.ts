import { rememberingCompiler, type LuaCompiler } from './luaSyntax';

let compiler: Promise<LuaCompiler> | undefined;

/**
 * The Lua compiler every scenario check shares (lessons:check, the build, `npm run sim`, the
 * instructor preview): a Lua VM of its own, loaded once, that compiles scripts and never runs
 * them. It is not the simulation's engine, so a compile never resets a VM a run is using. The
 * import is dynamic so what never checks a script never loads the VM. Browsers pass the
 * bundled wasm's URL (src/redis/lua/wasmUrl.ts). The build plugin has its own (buildLuaCompiler.ts).
 */
export function loadLuaCompiler(options: { wasmUrl?: string } = {}): Promise<LuaCompiler> {
  compiler ??= import('../../redis/lua').then(async ({ loadLuaEngine }) => {
    const engine = await loadLuaEngine(options);
    return rememberingCompiler((body) => engine.compileError(body));
  });
  // A failed load (say, the network dropped) must not poison every later attempt.
  compiler.catch(() => (compiler = undefined));
  return compiler;
}
