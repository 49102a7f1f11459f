// The binding to Redis 7.0.15's own Lua 5.1 compiled to WebAssembly (redisLua51.wasm, built by
// scripts/lua51/build.sh from the C glue scripts/lua51/redisLua.c). One instance is one lua_State
// with Redis's sandbox and libraries; scripts are kept compiled as Redis keeps them (f_<id>).
import { sha1Hex } from '../../sha1';
import createRedisLua, { type RedisLuaModule } from './redisLua51.js';

/** Answers one redis.call/redis.pcall: the arguments as byte strings, the reply as RESP2 bytes. */
export type Lua51Call = (args: string[]) => string;

export interface Lua51Options {
  /** The compiled redisLua51.wasm (Node: from its bytes; browser: fetched). */
  module: WebAssembly.Module;
  instructionBudget: number;
  memoryLimitBytes: number;
}

/** How a script ended: `ok` with its RESP2 reply, or Lua's error status and what it left. */
export type Lua51Outcome =
  | { ok: true; reply: string }
  /** `fields` for an error table ({err, source, line}), `message` for anything else. */
  | { ok: false; status: number; fields: { err: string; source: string; line: string } | null; message: string };

/** lua_pcall's status for a failed allocation (lua.h). */
export const LUA_ERRMEM = 4;

/** One lua_State with Redis's libraries (cjson, cmsgpack, bit, struct) and the redis table. */
export class Lua51Vm {
  private call: Lua51Call = () => '-ERR no script is running\r\n';
  private readonly idPtr: number;

  private constructor(
    private readonly m: RedisLuaModule,
    private readonly options: Lua51Options,
  ) {
    this.idPtr = m._malloc(41);
    this.open();
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
      hostSha1hex: (s, len, out) => bound.vm!.write(sha1Hex(bound.vm!.read(s, len)), out),
    });
    bound.vm = new Lua51Vm(m, options);
    return bound.vm;
  }

  /** Throws the lua_State away and opens a fresh one (compiled scripts go; math.random's state stays). */
  open(): void {
    if (this.m._rl_open(this.options.memoryLimitBytes, this.options.instructionBudget) !== 0) {
      throw new Error('Lua 5.1: lua_newstate failed');
    }
  }

  /** VM instructions the last eval ran (counted in hook steps of 1,000), C-side work not included. */
  get instructions(): number {
    return this.m._rl_vm_steps();
  }

  /** VM instructions plus the C-side work charged to the budget by the last eval. */
  get used(): number {
    return this.m._rl_used();
  }

  /** Whether the last eval hit the instruction budget. */
  get killed(): boolean {
    return this.m._rl_killed() !== 0;
  }

  /** The script line the memory cap refused an allocation at in the last eval, or 0. */
  get refusedAtLine(): number {
    return Math.max(0, this.m._rl_refused_line());
  }

  /** The rand48 state behind math.random (48 bits, exact in a double). */
  get randState(): number {
    return this.m._rl_rand_state();
  }

  set randState(state: number) {
    this.m._rl_set_rand_state(state);
  }

  /** Compiles `body` as `f_<id>` (id: 40 characters); Lua's compile message, or null. */
  compile(id: string, body: string): string | null {
    this.writeZ(id, this.idPtr);
    return this.load(this.idPtr, body);
  }

  /** Compiles `body` without keeping it; Lua's compile message, or null. Runs nothing. */
  check(body: string): string | null {
    return this.load(0, body);
  }

  /** Drops the compiled `f_<id>`. */
  forget(id: string): void {
    this.writeZ(id, this.idPtr);
    this.m._rl_unload(this.idPtr);
  }

  /** Runs the compiled `f_<id>` with KEYS and ARGV. */
  eval(id: string, keys: readonly string[], args: readonly string[], call: Lua51Call): Lua51Outcome {
    const all = [...keys, ...args];
    let p = this.m._rl_reserve_stage(
      all.reduce((n, s) => n + s.length, 0),
      all.length,
    );
    const lens = this.m._rl_stage_lens() >> 2;
    all.forEach((s, i) => {
      this.write(s, p);
      p += s.length;
      this.m.HEAP32[lens + i] = s.length;
    });
    this.writeZ(id, this.idPtr);
    this.call = call;
    const status = this.m._rl_eval(this.idPtr, keys.length, args.length);
    const out = this.read(this.m._rl_out(), this.m._rl_out_len());
    if (status === 0) return { ok: true, reply: out };
    const parts = out.split('\n');
    const fields = parts.length === 4 ? { err: parts[0] ?? '', source: parts[1] ?? '', line: parts[2] ?? '' } : null;
    return { ok: false, status, fields, message: out };
  }

  private load(idPtr: number, body: string): string | null {
    const bodyPtr = this.m._malloc(body.length + 1);
    this.writeZ(body, bodyPtr);
    const failed = this.m._rl_load(idPtr, bodyPtr, body.length) !== 0;
    this.m._free(bodyPtr);
    return failed ? this.read(this.m._rl_out(), this.m._rl_out_len()) : null;
  }

  private answer(argc: number, argv: number, lens: number): number {
    const args: string[] = [];
    const heap = this.m.HEAP32;
    for (let i = 0; i < argc; i++) args.push(this.read(heap[(argv >> 2) + i] ?? 0, heap[(lens >> 2) + i] ?? 0));
    const reply = this.call(args);
    this.writeZ(reply, this.m._rl_reserve_host(reply.length));
    return reply.length;
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
