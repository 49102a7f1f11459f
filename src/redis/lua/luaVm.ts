import { LuaGlobal, LuaLibraries, LUA_REGISTRYINDEX, type LuaWasm } from 'wasmoon';

/** A C function implemented in JavaScript: receives the lua_State pointer, returns the result count. */
export type NativeFunction = (L: number) => number;

const CHUNK_BYTES = 8192;

/** The exception Emscripten throws to implement longjmp, i.e. a Lua error in flight. */
export function isLuaUnwind(e: unknown): boolean {
  return typeof e === 'number';
}

/**
 * One Lua state inside the shared WebAssembly module, with the few raw C API helpers the
 * engine needs. Strings cross the boundary as bytes: the simulator stores Redis strings as
 * byte strings (one character per byte, see src/redis/sha1.ts), and Lua strings are bytes,
 * so a character maps to a byte and back. A string holding characters above 255 (which the
 * server should never send) is passed as UTF-8 rather than truncated.
 *
 * Memory is capped through wasmoon's tracing allocator: an allocation past the cap fails,
 * which Lua reports as "not enough memory" instead of growing the page's heap without end.
 */
export class LuaVm {
  readonly L: number;
  private readonly global: LuaGlobal;
  private readonly pointers: number[] = [];
  private readonly scratch: number;

  constructor(
    readonly lua: LuaWasm,
    memoryLimitBytes: number,
  ) {
    this.global = new LuaGlobal(lua, true);
    this.L = this.global.address;
    this.scratch = lua.module._malloc(8);
    for (const library of [
      LuaLibraries.Base,
      LuaLibraries.Table,
      LuaLibraries.String,
      LuaLibraries.Math,
      LuaLibraries.Coroutine,
      LuaLibraries.Debug,
    ]) {
      this.global.loadLibrary(library);
    }
    this.global.setMemoryMax(this.global.getMemoryUsed() + memoryLimitBytes);
  }

  /** Bytes the Lua heap holds right now. */
  memoryUsed(): number {
    return this.global.getMemoryUsed();
  }

  /** Registers a JavaScript function as a C function pointer that lives as long as this VM. */
  register(fn: NativeFunction): number {
    const pointer = this.lua.module.addFunction(fn, 'ii');
    this.pointers.push(pointer);
    return pointer;
  }

  /** Registers a debug hook (lua_Hook: void (*)(lua_State*, lua_Debug*)). */
  registerHook(fn: (L: number) => void): number {
    const pointer = this.lua.module.addFunction(fn, 'vii');
    this.pointers.push(pointer);
    return pointer;
  }

  /** Pushes a byte string. */
  pushString(L: number, s: string): void {
    const module = this.lua.module;
    const bytes = toBytes(s);
    const pointer = module._malloc(Math.max(1, bytes.length));
    try {
      module.HEAPU8.set(bytes, pointer);
      (module as unknown as RawApi)._lua_pushlstring(L, pointer, bytes.length);
    } finally {
      module._free(pointer);
    }
  }

  /** Reads the string (or number, converted in place by Lua) at `index` as a byte string. */
  toString(L: number, index: number): string {
    const module = this.lua.module;
    const pointer = (module as unknown as RawApi)._lua_tolstring(L, index, this.scratch);
    if (pointer === 0) return '';
    const length = module.HEAPU32[this.scratch >> 2] as number;
    const heap = module.HEAPU8;
    let s = '';
    for (let i = 0; i < length; i += CHUNK_BYTES) {
      const chunk = heap.subarray(pointer + i, pointer + Math.min(length, i + CHUNK_BYTES));
      s += String.fromCharCode.apply(null, chunk as unknown as number[]);
    }
    return s;
  }

  /** Compiles `source` as a chunk named `chunkName` and pushes it (or the error message). */
  load(L: number, source: string, chunkName: string): number {
    const module = this.lua.module;
    const bytes = toBytes(source);
    const pointer = module._malloc(Math.max(1, bytes.length));
    try {
      module.HEAPU8.set(bytes, pointer);
      return this.lua.luaL_loadbufferx(L, pointer, bytes.length, chunkName, 't');
    } finally {
      module._free(pointer);
    }
  }

  /** Pops the top value into the registry and returns its reference. */
  ref(L: number): number {
    return this.lua.luaL_ref(L, LUA_REGISTRYINDEX);
  }

  /** Pushes a value kept with ref(). */
  pushRef(L: number, ref: number): void {
    this.lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(ref));
  }

  /** Pushes t[key] (raw) for the table at `index`. */
  rawField(L: number, index: number, key: string): number {
    const table = this.lua.lua_absindex(L, index);
    this.pushString(L, key);
    return this.lua.lua_rawget(L, table);
  }

  /** Sets t[key] = top value (raw) for the table at `index`, popping the value. */
  setRawField(L: number, index: number, key: string): void {
    const table = this.lua.lua_absindex(L, index);
    this.pushString(L, key);
    this.lua.lua_rotate(L, -2, 1);
    this.lua.lua_rawset(L, table);
  }

  /** Frees the state and the function pointers registered for it. */
  close(): void {
    this.global.close();
    for (const pointer of this.pointers) this.lua.module.removeFunction(pointer);
    this.pointers.length = 0;
    this.lua.module._free(this.scratch);
  }
}

/** The raw exports used where wasmoon's wrappers would convert pointers to strings. */
interface RawApi {
  _lua_pushlstring(L: number, pointer: number, length: number): number;
  _lua_tolstring(L: number, index: number, lengthOut: number): number;
}

const utf8 = new TextEncoder();

/** A byte string as bytes; anything with characters above 255 goes as UTF-8. */
function toBytes(s: string): Uint8Array {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code > 0xff) return utf8.encode(s);
    bytes[i] = code;
  }
  return bytes;
}
