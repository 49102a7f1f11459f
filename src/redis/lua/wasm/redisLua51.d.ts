// Types for the Emscripten glue that scripts/lua51/build.sh generates next to redisLua51.wasm.

/** The module's exports: the C glue of scripts/lua51/redisLua.c plus the heap views. */
export interface RedisLuaModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _rl_open(memLimitBytes: number, instructionBudget: number): number;
  _rl_load(shaPtr: number, bodyPtr: number, length: number): number;
  _rl_eval(shaPtr: number, keyCount: number, argCount: number): number;
  _rl_stage(): number;
  _rl_stage_lens(): number;
  _rl_hostbuf(): number;
  _rl_out(): number;
  _rl_out_len(): number;
  _rl_used(): number;
  _rl_killed(): number;
  _rl_mem(): number;
}

export interface RedisLuaOptions {
  /** Instantiates the wasm ourselves, so the glue never fetches or reads a file. */
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object;
  /** redis.call / redis.pcall: argv/lens point at argc pointers and lengths; the reply goes to rl_hostbuf. */
  hostCall(argc: number, argv: number, lens: number): number;
}

export default function createRedisLua(options: RedisLuaOptions): Promise<RedisLuaModule>;
