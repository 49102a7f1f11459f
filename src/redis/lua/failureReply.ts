import { LuaReturn, LuaType } from 'wasmoon';
import { error, type Reply } from '../reply';
import type { LuaVm } from './luaVm';

/** The text 7.0.15 sends a client whose script SCRIPT KILL stopped (the budget kills the same way). */
export const KILLED = 'ERR Script killed by user with SCRIPT KILL...';

/**
 * The reply for a failed protected call whose error object is on top of the stack: Redis's
 * `{err=...}` tables with their `script: <sha>, on <source>:<line>.` suffix, the kill, the
 * memory cap (with the script's line when the allocator could tell it), or `Error running
 * script` for anything else.
 */
export function failureReply(vm: LuaVm, L: number, status: number, sha: string, killed: boolean): Reply {
  const { api } = vm;
  if (status === LuaReturn.ErrorMem) {
    // Lua gives a memory error no position; the allocator noted the script's line when it refused.
    const where = vm.refusedAtLine === null ? '' : `, on @user_script:${vm.refusedAtLine}.`;
    return error(`ERR Error running script ${sha}, not enough memory${where}`);
  }
  if (api.type(L, -1) === LuaType.Table) {
    const field = (key: string): string | null => {
      const type = vm.rawField(L, -1, key);
      const value =
        type === LuaType.String
          ? vm.toString(L, -1)
          : type === LuaType.Number
            ? String(Math.trunc(api.tonumberx(L, -1, 0)))
            : null;
      api.settop(L, -2);
      return value;
    };
    const message = field('err');
    if (message !== null) {
      const source = field('source');
      const line = field('line');
      const where = source !== null && line !== null ? ` script: ${sha}, on ${source}:${line}.` : '';
      return error(`${message}${where}`.replace(/[\r\n]/g, ' '));
    }
  }
  if (killed) return error(`${KILLED} script: ${sha}, on @user_script:1.`);
  const text = api.type(L, -1) === LuaType.String ? vm.toString(L, -1) : 'execution failure';
  return error(`ERR Error running script ${sha}, ${text.slice(0, 100)}`.replace(/[\r\n]/g, ' '));
}
