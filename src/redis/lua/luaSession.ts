import { LuaReturn, LuaType } from 'wasmoon';
import type { LuaVm } from './luaVm';
import { mapCompileMessage, rewriteFor51 } from './syntax51';

/** Refs and pointers of one live VM. */
export interface Session {
  vm: LuaVm;
  compile: number;
  beginRun: number;
  /** True when the heap was large after the last script: the next begin_run collects it. */
  collectNext: boolean;
  handlerEntry: number;
  hook: number;
  /** Compiled bodies (body -> registry ref), as Redis keeps its f_<sha> functions. */
  compiled: Map<string, number>;
}

/** Bodies kept compiled per VM; beyond this the cache starts over. */
export const COMPILED_MAX = 1000;

/**
 * Compiles a script in `session`'s VM without running it: Redis's compile message, or null when
 * it compiles. `failed` says the VM failed outside Lua's own error handling (out of memory, a
 * thrown error), so the engine must not trust it again.
 */
export function compileMessage(session: Pick<Session, 'vm' | 'compile'>, body: string): { message: string | null; failed: boolean } {
  const { vm, compile } = session;
  const { api } = vm;
  const L = vm.L;
  const base = api.gettop(L);
  try {
    vm.pushRef(L, compile);
    vm.pushString(L, rewriteFor51(body));
    if (vm.pcall(L, 1, 2, 0) !== LuaReturn.Ok) return { message: 'the script could not be compiled (the Lua VM ran out of memory)', failed: true };
    return { message: api.type(L, -2) === LuaType.Function ? null : mapCompileMessage(vm.toString(L, -1)), failed: false };
  } catch (e) {
    return { message: `the script could not be compiled: ${e instanceof Error ? e.message : String(e)}`, failed: true };
  } finally {
    api.settop(L, base);
  }
}
