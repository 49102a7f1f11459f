import { LUA_REGISTRYINDEX, LuaEventMasks, LuaReturn, LuaType, type LuaWasm } from 'wasmoon';
import { error, type Reply } from '../reply';
import type { ScriptEngine, ScriptRequest } from '../scriptEngine';
import { sha1Hex } from '../sha1';
import { luaInteger } from './luaApi';
import { failureReply, KILLED } from './failureReply';
import { isLuaUnwind, LuaVm } from './luaVm';
import { formatG, pushErrorTable, pushReply, readReply, replyWeightBytes } from './replyBridge';
import { sandboxSource, SHIM_CHUNKS } from './shimSources';
import { mapCompileMessage, rewriteFor51 } from './syntax51';
import { compileMessage, COMPILED_MAX, type Session } from './luaSession';
import { defaultLuaLimits, type LuaLimits } from './luaLimits';
import { nextRand48, RAND48_INITIAL, seedRand48 } from './rand48';

/** Instructions between two calls of the count hook. */
const HOOK_INTERVAL = 10_000;

/**
 * Bytes of long strings a script may make for the price of one instruction. Work done inside
 * C functions runs no VM instruction; charging the strings it makes (see LuaVm) and what
 * `native.charge` reports (searches, which make nothing) keeps a script's work bounded by its
 * budget, the same way on every run.
 */
const BYTES_PER_INSTRUCTION = 16;

/** Replies weighing less than this (see replyWeightBytes) are converted for free. */
const REPLY_FREE_BYTES = 4096;

/** After a script the heap is collected when it holds more than this. */
const COLLECT_ABOVE_BYTES = 8 * 1024 * 1024;

/** What the last run did, for the server (BUSY modelling) and for tests. */
export interface LuaRunStats {
  /** Instructions executed, to the nearest HOOK_INTERVAL. */
  instructions: number;
  /** True when the instruction budget cut the script. */
  killed: boolean;
  /** True when the VM was thrown away and rebuilt after this run. */
  restarted: boolean;
}

/**
 * Runs EVAL bodies in a Lua 5.4 VM shimmed toward Redis 7.0's Lua 5.1 (see README.md).
 * `run` is synchronous; a VM that failed in a way Lua cannot recover from is rebuilt.
 */
export class LuaScriptEngine implements ScriptEngine {
  private session: Session;
  private request: ScriptRequest | null = null;
  private hookCalls = 0;
  /** Instructions charged by the shim for searches inside C (native.charge). */
  private chargedInstructions = 0;
  /** The VM's count of long-string bytes made when the script started. */
  private stringBytesAtStart = 0;
  private killed = false;
  private inHandler = false;
  private rand48 = RAND48_INITIAL;
  lastRun: LuaRunStats = { instructions: 0, killed: false, restarted: false };

  constructor(
    private readonly lua: LuaWasm,
    readonly limits: LuaLimits = defaultLuaLimits,
  ) {
    this.session = this.start();
  }

  /** Runs one script; never throws. */
  run(request: ScriptRequest): Reply {
    this.request = request;
    this.hookCalls = 0;
    this.chargedInstructions = 0;
    this.stringBytesAtStart = this.session.vm.stringBytesMade;
    this.session.vm.refusedAtLine = null;
    this.killed = false;
    this.inHandler = false;
    let restart: boolean;
    let reply: Reply;
    try {
      const outcome = this.execute(request);
      reply = outcome.reply;
      restart = outcome.restart;
    } catch (e) {
      reply = error(`ERR Error running script ${request.sha}, ${e instanceof Error ? e.message : String(e)}`);
      restart = true;
    } finally {
      this.request = null;
    }
    this.lastRun = { instructions: this.hookCalls * HOOK_INTERVAL, killed: this.killed, restarted: restart };
    if (restart) this.restart();
    return reply;
  }

  /**
   * Compiles a script without running it and returns Redis's compile message
   * (`user_script:4: 'end' expected (to close 'if' at line 2) near '<eof>'`), or null when it
   * compiles. Nothing of the script runs, so an editor may call it on every keystroke.
   */
  compileError(body: string): string | null {
    const { message, failed } = compileMessage(this.session, body);
    // As after a failed run: a VM that failed outside Lua's own error handling is not trusted again.
    if (failed) this.restart();
    return message;
  }

  /** A view of this engine with its own math.random state, as a separate server process has. */
  forServer(): ScriptEngine {
    let rand48 = RAND48_INITIAL;
    return {
      run: (request) => {
        const saved = this.rand48;
        this.rand48 = rand48;
        try {
          return this.run(request);
        } finally {
          rand48 = this.rand48;
          this.rand48 = saved;
        }
      },
    };
  }

  /** Throws the VM away and starts a fresh one. */
  restart(): void {
    try {
      this.session.vm.close();
    } catch {
      // A VM that failed badly may not close cleanly; the new one does not depend on it.
    }
    this.session = this.start();
  }

  private execute(request: ScriptRequest): { reply: Reply; restart: boolean } {
    const session = this.session;
    const { vm, compile, beginRun, handlerEntry, hook, compiled: cache } = session;
    const { api } = vm;
    const L = vm.L;
    const base = api.gettop(L);
    // The message handler goes below the script first, so nothing has to be rotated later.
    const handler = base + 1;
    const script = base + 2;
    let hooked = false;
    try {
      api.pushcclosure(L, handlerEntry, 0);
      const cached = cache.get(request.body);
      if (cached !== undefined) {
        vm.pushRef(L, cached);
      } else {
        vm.pushRef(L, compile);
        vm.pushString(L, rewriteFor51(request.body));
        const compiled = vm.pcall(L, 1, 2, 0);
        if (compiled !== LuaReturn.Ok) return { reply: failureReply(vm, L, compiled, request.sha, this.killed), restart: true };
        if (api.type(L, -2) !== LuaType.Function) {
          const message = mapCompileMessage(vm.toString(L, -1));
          return { reply: error(`ERR Error compiling script (new function): ${message}`), restart: false };
        }
        api.settop(L, -2);
        if (cache.size >= COMPILED_MAX) this.forget(cache);
        api.pushvalue(L, -1);
        cache.set(request.body, vm.ref(L));
      }

      // begin_run also finishes the previous script's cleanup (see sandbox.lua); the
      // third argument, asking for a full collection, is only pushed when it is true.
      vm.pushRef(L, beginRun);
      this.pushStrings(L, request.keys);
      this.pushStrings(L, request.args);
      if (session.collectNext) api.pushboolean(L, 1);
      const begun = vm.pcall(L, session.collectNext ? 3 : 2, 0, 0);
      if (begun !== LuaReturn.Ok) return { reply: failureReply(vm, L, begun, request.sha, this.killed), restart: true };
      session.collectNext = false;

      hooked = true;
      api.sethook(L, hook, LuaEventMasks.Count, HOOK_INTERVAL);
      const status = vm.pcall(L, 0, 1, handler);
      // No Lua code runs from here to the end of the run (reading values calls no
      // metamethods), so the hook is cleared once, in the finally block.
      const reply = status === LuaReturn.Ok ? readReply(vm, L, script) : failureReply(vm, L, status, request.sha, this.killed);
      session.collectNext = vm.memoryUsed() > COLLECT_ABOVE_BYTES;
      return { reply, restart: status === LuaReturn.ErrorMem };
    } finally {
      if (hooked) api.sethook(L, 0, 0, 0);
      api.settop(L, base);
    }
  }

  /** Drops every cached compiled body. */
  private forget(cache: Map<string, number>): void {
    const { vm } = this.session;
    for (const ref of cache.values()) vm.api.unref(vm.L, LUA_REGISTRYINDEX, ref);
    cache.clear();
  }

  /** Pushes a Lua array of byte strings. */
  private pushStrings(L: number, values: string[]): void {
    const { vm } = this.session;
    vm.api.createtable(L, values.length, 0);
    for (let i = 0; i < values.length; i++) {
      vm.pushString(L, values[i] as string);
      vm.api.rawseti(L, -2, luaInteger(i + 1));
    }
  }

  /** Builds a VM: libraries, the sandbox, the redis/bit/cjson shims, and the native hooks. */
  private start(): Session {
    const vm = new LuaVm(this.lua, this.limits.memoryLimitBytes);
    const { api } = vm;
    const L = vm.L;
    const native = this.nativeFunctions(vm);

    api.createtable(L, 0, 6);
    for (const [name, pointer] of Object.entries(native)) {
      api.pushcclosure(L, pointer, 0);
      vm.setRawField(L, -2, name);
    }
    api.pushlightuserdata(L, 0);
    vm.setRawField(L, -2, 'null');
    const nativeTable = api.gettop(L);

    this.runChunk(vm, '=sandbox', sandboxSource, [nativeTable], 1);
    const env = api.gettop(L);
    for (const [name, source] of SHIM_CHUNKS) this.runChunk(vm, name, source, [env, nativeTable], 0);

    const refOf = (key: string): number => {
      vm.rawField(L, env, key);
      return vm.ref(L);
    };
    const session: Session = {
      vm,
      compile: refOf('compile_user'),
      beginRun: refOf('begin_run'),
      collectNext: false,
      handlerEntry: 0,
      hook: 0,
      compiled: new Map(),
    };
    const handler = refOf('handler');
    session.handlerEntry = vm.register((state) => {
      // The message handler is entered through C so that the kill hook, which fires only in
      // Lua code, can be told to stand down before any instruction of the handler runs.
      this.inHandler = true;
      vm.pushRef(state, handler);
      api.rotate(state, 1, 1);
      api.callk(state, 1, 1, 0, 0);
      return 1;
    });
    session.hook = vm.registerHook((state) => this.onCount(vm, state, session.hook));
    api.settop(L, 0);
    return session;
  }

  /** Loads and runs one shim chunk with the values at `argIndexes` as its arguments. */
  private runChunk(vm: LuaVm, name: string, source: string, argIndexes: number[], results: number): void {
    const { api } = vm;
    const L = vm.L;
    if (vm.load(L, source, name) !== LuaReturn.Ok) throw new Error(`Lua shim ${name}: ${vm.toString(L, -1)}`);
    for (const index of argIndexes) api.pushvalue(L, index);
    if (vm.pcall(L, argIndexes.length, results, 0) !== LuaReturn.Ok) {
      throw new Error(`Lua shim ${name}: ${vm.toString(L, -1)}`);
    }
  }

  /**
   * The count hook: once the budget is spent the script is killed like SCRIPT KILL does it,
   * and, as in Redis, the hook then fires on every instruction so pcall cannot swallow it.
   */
  private onCount(vm: LuaVm, L: number, hook: number): void {
    this.hookCalls++;
    if (this.inHandler) return;
    if (!this.killed && this.spentInstructions(vm) < this.limits.instructionBudget) return;
    this.killed = true;
    vm.api.sethook(L, hook, LuaEventMasks.Count, 1);
    vm.api.sethook(vm.L, hook, LuaEventMasks.Count, 1);
    pushErrorTable(vm, L, KILLED, false);
    vm.api.error(L);
  }

  /** Charges C-side work worth `bytes`; past the budget the hook kills on the next instruction. */
  private charge(vm: LuaVm, L: number, bytes: number): void {
    this.chargedInstructions += bytes / BYTES_PER_INSTRUCTION;
    if (this.request !== null && this.spentInstructions(vm) >= this.limits.instructionBudget) {
      vm.api.sethook(L, this.session.hook, LuaEventMasks.Count, 1);
      vm.api.sethook(vm.L, this.session.hook, LuaEventMasks.Count, 1);
    }
  }

  /** Instructions run plus those charged for C-side work, since the script started. */
  private spentInstructions(vm: LuaVm): number {
    const made = vm.stringBytesMade - this.stringBytesAtStart;
    return this.hookCalls * HOOK_INTERVAL + this.chargedInstructions + made / BYTES_PER_INSTRUCTION;
  }

  /** The host side of the shim: redis.call/pcall, error, rand48, sha1hex and 5.1 syntax. */
  private nativeFunctions(vm: LuaVm): Record<string, number> {
    const { api } = vm;
    const stringFunction = (fn: (input: string) => string) =>
      vm.register((L) => {
        vm.pushString(L, fn(vm.toString(L, 1)));
        return 1;
      });
    // Calls the Lua function in upvalue 1 with all arguments: see harden() in sandbox.lua.
    const trampoline = vm.register((L) => {
      const count = api.gettop(L);
      api.pushvalue(L, LUA_REGISTRYINDEX - 1);
      api.rotate(L, 1, 1);
      api.callk(L, count, -1, 0, 0);
      return api.gettop(L);
    });
    return {
      wrap: vm.register((L) => {
        api.settop(L, 1);
        api.pushcclosure(L, trampoline, 1);
        return 1;
      }),
      call: vm.register((L) => this.redisCall(vm, L, true)),
      pcall: vm.register((L) => this.redisCall(vm, L, false)),
      error: vm.register((L) => {
        // luaB_error as in 5.1: numbers get the position too, and level 1 is the caller.
        const level = api.type(L, 2) > 0 ? Math.trunc(api.tonumberx(L, 2, 0)) : 1;
        api.settop(L, 1);
        const type = api.type(L, 1);
        if (type === LuaType.Number) {
          const text = formatG(api.tonumberx(L, 1, 0), 14);
          api.settop(L, 0);
          vm.pushString(L, text);
        }
        if ((type === LuaType.String || type === LuaType.Number) && level > 0) {
          api.where(L, level);
          api.rotate(L, 1, 1);
          api.concat(L, 2);
        }
        return api.error(L);
      }),
      lrand48: vm.register((L) => {
        const { state, value } = nextRand48(this.rand48);
        this.rand48 = state;
        api.pushinteger(L, value);
        return 1;
      }),
      srand48: vm.register((L) => {
        this.rand48 = seedRand48(api.tonumberx(L, 1, 0));
        return 0;
      }),
      // The shim reports C work that allocates nothing (a plain search compares up to text ×
      // needle bytes). Past the budget, the hook fires on the next instruction and kills.
      charge: vm.register((L) => {
        this.charge(vm, L, api.tonumberx(L, 1, 0));
        return 0;
      }),
      sha1hex: stringFunction(sha1Hex),
      rewrite: stringFunction(rewriteFor51),
      mapmsg: stringFunction(mapCompileMessage),
    };
  }

  /** redis.call (raise=true) and redis.pcall: Redis's argument rules, then the server. */
  private redisCall(vm: LuaVm, L: number, raise: boolean): number {
    const { api } = vm;
    const count = api.gettop(L);
    let problem = count === 0 ? 'Please specify at least one argument for this redis lib call' : null;
    const argv: string[] = [];
    for (let i = 1; i <= count && problem === null; i++) {
      const type = api.type(L, i);
      // Numbers go as %.17g so no precision is lost (0.1 -> "0.10000000000000001").
      if (type === LuaType.Number) argv.push(formatG(api.tonumberx(L, i, 0), 17));
      else if (type === LuaType.String) argv.push(vm.toString(L, i));
      else problem = 'Lua redis lib command arguments must be strings or integers';
    }
    if (problem !== null) {
      pushErrorTable(vm, L, `ERR ${problem}`, false);
      return raise ? api.error(L) : 1;
    }
    let reply: Reply;
    try {
      reply = this.request ? this.request.call(argv) : error('ERR no script is running');
    } catch (e) {
      if (isLuaUnwind(e)) throw e;
      // A bug in a command must not unwind through the VM; the script sees an error reply.
      reply = error(`ERR ${e instanceof Error ? e.message : String(e)}`);
    }
    // The server's reply is converted into Lua in host code that runs no instruction: a
    // script looping over a big LRANGE or HGETALL pays for each element and byte it gets.
    const weight = replyWeightBytes(reply);
    if (weight > REPLY_FREE_BYTES) this.charge(vm, L, weight);
    pushReply(vm, L, reply);
    return raise && reply.type === 'error' ? api.error(L) : 1;
  }
}
