import { LuaGlobal, LuaLibraries, LUA_REGISTRYINDEX, type LuaWasm } from 'wasmoon';
import { bindLuaApi, luaInteger, type LuaApi } from './luaApi';

/** A C function implemented in JavaScript: receives the lua_State pointer, returns the result count. */
export type NativeFunction = (L: number) => number;

const CHUNK_BYTES = 8192;

/** The type tag Lua passes as the old size when it allocates a new string object. */
const LUA_TSTRING = 4;

/** Above this a new string object is a long one (40 bytes of text at most, plus its header). */
const LONG_STRING_MIN_BYTES = 128;

/** Strings up to this length are read with a plain loop, cheaper than apply() for short ones. */
const SHORT_STRING_BYTES = 64;

/** Size of the buffer short strings are copied through on their way into Lua. */
const BUFFER_BYTES = 4096;

/**
 * Lua 5.4's lua_Debug on wasm32: event, name, namewhat, what, source, srclen (4 bytes each),
 * currentline, linedefined, lastlinedefined, four chars, two shorts, short_src[60], i_ci.
 */
const LUA_DEBUG_BYTES = 128;
const DEBUG_SOURCE_OFFSET = 16;
const DEBUG_CURRENTLINE_OFFSET = 24;
/** The chunk name scripts are compiled under (sandbox.lua's compile_user), as Redis names them. */
const USER_SCRIPT_SOURCE = '@user_script';
/** Shim frames (cjson, pattern matching) sit above the script's; a few dozen is plenty. */
const MAX_FRAMES_SEARCHED = 64;

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
 * Memory is capped through the VM's own allocator (it replaces wasmoon's tracing one, which it
 * copies): an allocation past the cap fails, which Lua reports as "not enough memory" instead
 * of growing the page's heap without end. The allocator also counts the bytes of long
 * strings made, which the engine charges to a script's budget: making them in C
 * (`string.rep`, `..`, `table.concat`) runs no VM instruction, and would otherwise be free.
 * Only long strings count because only they cost the same whatever ran before: short ones
 * are interned (an existing one costs nothing), and stacks and string tables grow and shrink
 * with the collector's timing.
 * The cap holds only inside protected calls (pcall()): a memory error raised outside one,
 * say while the host pushes a script's arguments, has no handler to land in and would abort
 * the WebAssembly module. The host's own pushes are bounded by the request's size, and the
 * next protected allocation fails if they went past the cap.
 */
export class LuaVm {
  readonly L: number;
  /** The raw C API (see luaApi.ts): use it rather than `lua.lua_xxx` on hot paths. */
  readonly api: LuaApi;
  private readonly global: LuaGlobal;
  private readonly pointers: number[] = [];
  /** Where lua_tolstring writes a string's length. */
  private readonly lengthOut: number;
  /** A reusable buffer for short strings pushed into Lua. */
  private readonly buffer: number;
  /** The heap size allocations may not grow past inside protected calls. */
  private readonly memoryMaxBytes: number;
  /** The cap in force now: memoryMaxBytes inside protected calls, none (0) outside. */
  private capBytes = 0;
  /** Bytes the Lua heap holds. */
  private usedBytes: number;
  /** Bytes of long strings made since the VM started; the engine reads differences. */
  stringBytesMade = 0;
  /**
   * The user script's line at the first allocation the cap refused since the engine last
   * cleared it (null when none was refused, or no script line was on the stack). A memory
   * error carries no position in Lua, so this is the only way to say where a script was.
   */
  refusedAtLine: number | null = null;
  /** A lua_Debug for lua_getstack/lua_getinfo, and the "Sl" they are asked for. */
  private readonly debugInfo: number;
  private readonly sourceAndLine: number;

  constructor(
    readonly lua: LuaWasm,
    memoryLimitBytes: number,
  ) {
    this.global = new LuaGlobal(lua, true);
    this.L = this.global.address;
    this.api = bindLuaApi(lua);
    this.lengthOut = lua.module._malloc(8);
    this.buffer = lua.module._malloc(BUFFER_BYTES);
    this.debugInfo = lua.module._malloc(LUA_DEBUG_BYTES);
    this.sourceAndLine = lua.module._malloc(4);
    lua.module.HEAPU8.set([83, 108, 0], this.sourceAndLine); // "Sl"
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
    this.usedBytes = this.global.getMemoryUsed();
    this.memoryMaxBytes = this.usedBytes + memoryLimitBytes;
    const module = lua.module;
    const allocator = module.addFunction((_userData: number, pointer: number, oldSize: number, newSize: number) => {
      if (newSize === 0) {
        if (pointer) {
          this.usedBytes -= oldSize;
          module._free(pointer);
        }
        return 0;
      }
      // Without a block, oldSize holds the kind of object being made, not a size.
      const growthBytes = pointer ? newSize - oldSize : newSize;
      const endBytes = this.usedBytes + growthBytes;
      if (growthBytes > 0 && this.capBytes && endBytes > this.capBytes) {
        this.refusedAtLine ??= this.scriptLine();
        return 0;
      }
      const reallocated = module._realloc(pointer, newSize);
      if (reallocated) {
        this.usedBytes = endBytes;
        if (!pointer && oldSize === LUA_TSTRING && newSize > LONG_STRING_MIN_BYTES) this.stringBytesMade += newSize;
      }
      return reallocated;
    }, 'iiiii');
    this.pointers.push(allocator);
    lua.lua_setallocf(this.L, allocator, null);
  }

  /**
   * The line of the innermost user-script frame on the main thread's stack, or null. Safe
   * inside the allocator: lua_getstack and lua_getinfo("Sl") read frames and allocate nothing.
   */
  private scriptLine(): number | null {
    const module = this.lua.module;
    for (let level = 0; level < MAX_FRAMES_SEARCHED; level++) {
      if (this.api.getstack(this.L, level, this.debugInfo) === 0) return null;
      this.api.getinfo(this.L, this.sourceAndLine, this.debugInfo);
      const source = module.HEAPU32[(this.debugInfo + DEBUG_SOURCE_OFFSET) >> 2] as number;
      if (source && this.cStringIs(source, USER_SCRIPT_SOURCE)) return module.HEAP32[(this.debugInfo + DEBUG_CURRENTLINE_OFFSET) >> 2] as number;
    }
    return null;
  }

  private cStringIs(pointer: number, expected: string): boolean {
    const heap = this.lua.module.HEAPU8;
    for (let i = 0; i < expected.length; i++) if (heap[pointer + i] !== expected.charCodeAt(i)) return false;
    return heap[pointer + expected.length] === 0;
  }

  /** lua_pcallk without continuation, with the memory cap on for its duration. */
  pcall(L: number, nargs: number, nresults: number, handler: number): number {
    const outer = this.capBytes;
    this.capBytes = this.memoryMaxBytes;
    try {
      return this.api.pcallk(L, nargs, nresults, handler, 0, 0);
    } finally {
      this.capBytes = outer;
    }
  }

  /** Bytes the Lua heap holds right now. */
  memoryUsed(): number {
    return this.usedBytes;
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

  /**
   * Pushes a byte string. Short strings go through one buffer kept for the VM's life:
   * lua_pushlstring copies them before it can run any code that might push another string.
   * Longer ones get a buffer of their own, freed at once, so one huge argument does not
   * hold its size of the WebAssembly heap for as long as the VM lives.
   */
  pushString(L: number, s: string): void {
    const length = s.length;
    const buffer = length <= BUFFER_BYTES ? this.buffer : this.allocate(length);
    try {
      const heap = this.lua.module.HEAPU8;
      for (let i = 0; i < length; i++) {
        const code = s.charCodeAt(i);
        if (code > 0xff) {
          this.pushUtf8(L, s);
          return;
        }
        heap[buffer + i] = code;
      }
      this.api.pushlstring(L, buffer, length);
    } finally {
      if (buffer !== this.buffer) this.lua.module._free(buffer);
    }
  }

  /** Pushes a string holding characters above 255 as its UTF-8 bytes. */
  private pushUtf8(L: number, s: string): void {
    const bytes = utf8.encode(s);
    const buffer = bytes.length <= BUFFER_BYTES ? this.buffer : this.allocate(bytes.length);
    try {
      this.lua.module.HEAPU8.set(bytes, buffer);
      this.api.pushlstring(L, buffer, bytes.length);
    } finally {
      if (buffer !== this.buffer) this.lua.module._free(buffer);
    }
  }

  /** A buffer of `bytes` bytes outside the Lua heap, for the caller to free. */
  private allocate(bytes: number): number {
    const pointer = this.lua.module._malloc(bytes);
    if (pointer === 0) throw new Error(`cannot allocate ${bytes} bytes for a Lua string`);
    return pointer;
  }

  /** Reads the string (or number, converted in place by Lua) at `index` as a byte string. */
  toString(L: number, index: number): string {
    const module = this.lua.module;
    const pointer = this.api.tolstring(L, index, this.lengthOut);
    if (pointer === 0) return '';
    const length = module.HEAPU32[this.lengthOut >> 2] as number;
    const heap = module.HEAPU8;
    if (length <= SHORT_STRING_BYTES) {
      let s = '';
      for (let i = 0; i < length; i++) s += String.fromCharCode(heap[pointer + i] as number);
      return s;
    }
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
    return this.api.ref(L, LUA_REGISTRYINDEX);
  }

  /** Pushes a value kept with ref(). */
  pushRef(L: number, ref: number): void {
    this.api.rawgeti(L, LUA_REGISTRYINDEX, luaInteger(ref));
  }

  /** Pushes t[key] (raw) for the table at `index`. */
  rawField(L: number, index: number, key: string): number {
    const table = this.api.absindex(L, index);
    this.pushString(L, key);
    return this.api.rawget(L, table);
  }

  /** Sets t[key] = top value (raw) for the table at `index`, popping the value. */
  setRawField(L: number, index: number, key: string): void {
    const table = this.api.absindex(L, index);
    this.pushString(L, key);
    this.api.rotate(L, -2, 1);
    this.api.rawset(L, table);
  }

  /** Frees the state and the function pointers registered for it. */
  close(): void {
    this.global.close();
    for (const pointer of this.pointers) this.lua.module.removeFunction(pointer);
    this.pointers.length = 0;
    this.lua.module._free(this.lengthOut);
    this.lua.module._free(this.buffer);
  }
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
