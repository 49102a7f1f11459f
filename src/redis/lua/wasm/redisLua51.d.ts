// Types for the Emscripten glue that scripts/lua51/build.sh generates next to redisLua51.wasm.

/** The module's exports: the C glue of scripts/lua51/redisLua.c plus the heap views. */
export interface RedisLuaModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _rl_open(memLimitBytes: number, instructionBudget: number): number;
  _rl_load(idPtr: number, bodyPtr: number, length: number): number;
  _rl_unload(idPtr: number): void;
  _rl_eval(idPtr: number, keyCount: number, argCount: number): number;
  _rl_reserve_stage(bytes: number, strings: number): number;
  _rl_stage_lens(): number;
  _rl_reserve_host(bytes: number): number;
  _rl_out(): number;
  _rl_out_len(): number;
  _rl_vm_steps(): number;
  _rl_used(): number;
  _rl_killed(): number;
  _rl_mem(): number;
  _rl_refused_line(): number;
  _rl_rand_state(): number;
  _rl_set_rand_state(state: number): void;
}

export interface RedisLuaOptions {
  /** Instantiates the wasm ourselves, so the glue never fetches or reads a file. */
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object;
  /** redis.call / redis.pcall: argv/lens point at argc pointers and lengths; the reply goes to rl_reserve_host's buffer. */
  hostCall(argc: number, argv: number, lens: number): number;
  /** redis.sha1hex: writes the 40 hex digits of SHA-1 of len bytes at s to out. */
  hostSha1hex(s: number, len: number, out: number): void;
}

export default function createRedisLua(options: RedisLuaOptions): Promise<RedisLuaModule>;
