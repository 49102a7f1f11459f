import type { LuaWasm } from 'wasmoon';

/**
 * The slice of Lua's C API the engine calls, bound straight to the module's exports.
 *
 * Why not wasmoon's own `lua.lua_xxx` functions: each of those goes through `cwrap` →
 * `ccall`, which looks the export up by name and converts every argument on every call,
 * about 200 ns a call, while an EVAL makes dozens of calls. The exports themselves
 * (`module._lua_xxx`) cost a fraction of that. Pointers are plain numbers (0 for NULL) and
 * `lua_Integer` parameters and results are BigInts, as the module was built with BigInt
 * support for 64-bit integers.
 */
export interface LuaApi {
  absindex(L: number, index: number): number;
  gettop(L: number): number;
  settop(L: number, index: number): void;
  pushvalue(L: number, index: number): void;
  rotate(L: number, index: number, n: number): void;
  checkstack(L: number, n: number): number;
  type(L: number, index: number): number;
  toboolean(L: number, index: number): number;
  tonumberx(L: number, index: number, isNumOut: number): number;
  tolstring(L: number, index: number, lengthOut: number): number;
  pushnil(L: number): void;
  pushboolean(L: number, b: number): void;
  pushinteger(L: number, n: bigint): void;
  pushnumber(L: number, n: number): void;
  pushlstring(L: number, pointer: number, length: number): number;
  pushcclosure(L: number, fn: number, upvalues: number): void;
  pushlightuserdata(L: number, pointer: number): void;
  createtable(L: number, arrayCount: number, hashCount: number): void;
  rawget(L: number, index: number): number;
  rawgeti(L: number, index: number, n: bigint): number;
  rawset(L: number, index: number): void;
  rawseti(L: number, index: number, n: bigint): void;
  next(L: number, index: number): number;
  concat(L: number, n: number): void;
  callk(L: number, nargs: number, nresults: number, ctx: number, k: number): void;
  pcallk(L: number, nargs: number, nresults: number, handler: number, ctx: number, k: number): number;
  error(L: number): number;
  sethook(L: number, hook: number, mask: number, count: number): void;
  ref(L: number, table: number): number;
  unref(L: number, table: number, ref: number): void;
  where(L: number, level: number): void;
  getstack(L: number, level: number, debugInfo: number): number;
  getinfo(L: number, what: number, debugInfo: number): number;
}

/** Emscripten's exported names: the C function's name behind an underscore. */
const EXPORTS: Record<keyof LuaApi, string> = {
  absindex: '_lua_absindex',
  gettop: '_lua_gettop',
  settop: '_lua_settop',
  pushvalue: '_lua_pushvalue',
  rotate: '_lua_rotate',
  checkstack: '_lua_checkstack',
  type: '_lua_type',
  toboolean: '_lua_toboolean',
  tonumberx: '_lua_tonumberx',
  tolstring: '_lua_tolstring',
  pushnil: '_lua_pushnil',
  pushboolean: '_lua_pushboolean',
  pushinteger: '_lua_pushinteger',
  pushnumber: '_lua_pushnumber',
  pushlstring: '_lua_pushlstring',
  pushcclosure: '_lua_pushcclosure',
  pushlightuserdata: '_lua_pushlightuserdata',
  createtable: '_lua_createtable',
  rawget: '_lua_rawget',
  rawgeti: '_lua_rawgeti',
  rawset: '_lua_rawset',
  rawseti: '_lua_rawseti',
  next: '_lua_next',
  concat: '_lua_concat',
  callk: '_lua_callk',
  pcallk: '_lua_pcallk',
  error: '_lua_error',
  sethook: '_lua_sethook',
  ref: '_luaL_ref',
  unref: '_luaL_unref',
  where: '_luaL_where',
  getstack: '_lua_getstack',
  getinfo: '_lua_getinfo',
};

/** Binds the C API exports of a loaded module; throws if the module lacks one. */
export function bindLuaApi(lua: LuaWasm): LuaApi {
  const module = lua.module as unknown as Record<string, unknown>;
  const api: Partial<Record<keyof LuaApi, unknown>> = {};
  for (const [name, exported] of Object.entries(EXPORTS) as [keyof LuaApi, string][]) {
    const fn = module[exported];
    if (typeof fn !== 'function') throw new Error(`wasmoon module does not export ${exported}`);
    api[name] = fn;
  }
  return api as LuaApi;
}

/** BigInts for the small integers used as table indexes, made once instead of per call. */
const SMALL_INTEGERS: bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/** `n` as a BigInt, without allocating for small values. */
export function luaInteger(n: number): bigint {
  return n < SMALL_INTEGERS.length ? (SMALL_INTEGERS[n] as bigint) : BigInt(n);
}
