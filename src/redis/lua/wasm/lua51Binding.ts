// The binding to Redis 7.0.15's own Lua 5.1 compiled to WebAssembly (redisLua51.wasm, built by
// scripts/lua51/build.sh). First slice of the move off wasmoon (issue 29): it compiles and runs
// scripts the way Redis keeps them (`f_<sha>` globals) and speaks RESP2 both ways; the
// `ScriptEngine` in ../luaScriptEngine.ts does not use it yet (see ../README.md, "Plan").
import createRedisLua, { type RedisLuaModule } from './redisLua51.js';

/** Answers one redis.call/redis.pcall: the arguments as byte strings, the reply as RESP2 text. */
export type Lua51Call = (args: string[]) => string;

export interface Lua51Options {
  /** The compiled redisLua51.wasm (Node: from its bytes; browser: WebAssembly.compileStreaming). */
  module: WebAssembly.Module;
  instructionBudget: number;
  memoryLimitBytes: number;
}

/** The glue's fixed buffers (redisLua.c): KEYS+ARGV bytes, their count, one redis.call reply. */
const STAGE_BYTES = 1 << 16;
const STAGE_STRINGS = 512;
const HOST_REPLY_BYTES = 1 << 16;

/** One lua_State with Redis's libraries (cjson, cmsgpack, bit, struct) and redis.call/pcall. */
export class Lua51Vm {
  private call: Lua51Call = () => '$-1\r\n';
  private readonly shaPtr: number;
  private readonly loaded = new Set<string>();

  private constructor(private readonly m: RedisLuaModule, options: Lua51Options) {
    if (m._rl_open(options.memoryLimitBytes, options.instructionBudget) !== 0) {
      throw new Error('Lua 5.1: lua_newstate failed (memoryLimitBytes too small for an empty VM?)');
    }
    this.shaPtr = m._malloc(41);
  }

  static async create(options: Lua51Options): Promise<Lua51Vm> {
    // host_call fires only inside an eval, after the VM below exists.
    const bound: { vm?: Lua51Vm } = {};
    const m = await createRedisLua({
      instantiateWasm(imports, done) {
        void WebAssembly.instantiate(options.module, imports).then(done);
        return {};
      },
      hostCall: (argc, argv, lens) => bound.vm!.answer(argc, argv, lens),
    });
    bound.vm = new Lua51Vm(m, options);
    return bound.vm;
  }

  /** VM instructions (counted in hook steps of 1,000) plus C work charged by the last eval. */
  get instructions(): number {
    return this.m._rl_used();
  }

  /** Whether the last eval hit the instruction budget. */
  get killed(): boolean {
    return this.m._rl_killed() !== 0;
  }

  /** Compiles `body` as `f_<sha>` once; answers Lua's compile message, or null. */
  compile(sha: string, body: string): string | null {
    if (this.loaded.has(sha)) return null;
    this.writeZ(sha, this.shaPtr);
    const bodyPtr = this.m._malloc(body.length + 1);
    this.writeZ(body, bodyPtr);
    const failed = this.m._rl_load(this.shaPtr, bodyPtr, body.length) !== 0;
    this.m._free(bodyPtr);
    if (failed) return this.readOut();
    this.loaded.add(sha);
    return null;
  }

  /** Runs the compiled `f_<sha>` with KEYS and ARGV; the script's reply as RESP2 text. */
  eval(sha: string, keys: readonly string[], args: readonly string[], call: Lua51Call): string {
    const all = [...keys, ...args];
    const bytes = all.reduce((n, s) => n + s.length, 0);
    if (all.length > STAGE_STRINGS || bytes > STAGE_BYTES) {
      throw new Error(`Lua 5.1 binding: KEYS+ARGV hold ${all.length} strings, ${bytes} bytes; the glue stages at most ${STAGE_STRINGS} strings and ${STAGE_BYTES} bytes`);
    }
    let p = this.m._rl_stage();
    const lens = this.m._rl_stage_lens() >> 2;
    all.forEach((s, i) => {
      this.write(s, p);
      p += s.length;
      this.m.HEAP32[lens + i] = s.length;
    });
    this.writeZ(sha, this.shaPtr);
    this.call = call;
    this.m._rl_eval(this.shaPtr, keys.length, args.length);
    return this.readOut();
  }

  private answer(argc: number, argv: number, lens: number): number {
    const args: string[] = [];
    for (let i = 0; i < argc; i++) {
      args.push(this.read(this.m.HEAP32[(argv >> 2) + i] ?? 0, this.m.HEAP32[(lens >> 2) + i] ?? 0));
    }
    const reply = this.call(args);
    if (reply.length >= HOST_REPLY_BYTES) {
      throw new Error(`Lua 5.1 binding: a redis.call reply of ${reply.length} bytes exceeds the glue's ${HOST_REPLY_BYTES}-byte buffer`);
    }
    this.writeZ(reply, this.m._rl_hostbuf());
    return reply.length;
  }

  private readOut(): string {
    return this.read(this.m._rl_out(), this.m._rl_out_len());
  }

  /** Byte strings: one character (0–255) per byte, never UTF-8. */
  private read(ptr: number, length: number): string {
    let s = '';
    for (let i = 0; i < length; i += 8192) {
      s += String.fromCharCode(...this.m.HEAPU8.subarray(ptr + i, ptr + Math.min(length, i + 8192)));
    }
    return s;
  }

  private write(s: string, ptr: number): void {
    const heap = this.m.HEAPU8;
    for (let i = 0; i < s.length; i++) heap[ptr + i] = s.charCodeAt(i) & 255;
  }

  private writeZ(s: string, ptr: number): void {
    this.write(s, ptr);
    this.m.HEAPU8[ptr + s.length] = 0;
  }
}
