import { error, type Reply } from '../reply';
import type { ScriptEngine, ScriptRequest } from '../scriptEngine';
import { defaultLuaLimits, type LuaLimits } from './luaLimits';
import { LUA_ERRMEM, Lua51Vm, type Lua51Outcome } from './wasm/lua51Binding';
import { decodeResp2, encodeResp2 } from './wasm/resp2';

/** Bodies kept compiled per VM; beyond this the cache starts over. */
const COMPILED_MAX = 1000;

/** What the last run did, for the server (BUSY modelling) and for tests. */
export interface LuaRunStats {
  /** VM instructions executed, to the nearest 1,000 (C-side work charged to the budget not included). */
  instructions: number;
  /** True when the instruction budget cut the script. */
  killed: boolean;
  /** True when the VM was thrown away and rebuilt after this run. */
  restarted: boolean;
}

/**
 * Runs EVAL bodies in Redis 7.0.15's own Lua 5.1 (see README.md): the sandbox, the libraries and
 * the redis table are Redis's, done by the C glue. `run` is synchronous and never throws.
 */
export class LuaScriptEngine implements ScriptEngine {
  /** Compiled bodies: body -> the id of its f_<id> in the VM (Redis keys them by SHA1; a counter is cheaper). */
  private readonly compiled = new Map<string, string>();
  private nextId = 0;
  lastRun: LuaRunStats = { instructions: 0, killed: false, restarted: false };

  constructor(
    private readonly vm: Lua51Vm,
    readonly limits: LuaLimits = defaultLuaLimits,
  ) {}

  /** Runs one script; never throws. */
  run(request: ScriptRequest): Reply {
    let reply: Reply;
    let restarted = false;
    try {
      reply = this.execute(request);
    } catch (e) {
      // Something escaped the VM (a bug): the lua_State may be half-unwound, so it is rebuilt.
      reply = error(`ERR Error running script ${request.sha}, ${e instanceof Error ? e.message : String(e)}`);
      this.restart();
      restarted = true;
    }
    this.lastRun = { instructions: this.vm.instructions, killed: this.vm.killed, restarted };
    return reply;
  }

  /**
   * Compiles a script without running it and returns Redis's compile message
   * (`user_script:4: 'end' expected (to close 'if' at line 2) near '<eof>'`), or null when it
   * compiles. Nothing of the script runs, so an editor may call it on every keystroke.
   */
  compileError(body: string): string | null {
    return this.vm.check(body);
  }

  /** A view of this engine with its own math.random state, as a separate server process has. */
  forServer(): ScriptEngine {
    let rand48 = RAND48_INITIAL;
    return {
      run: (request) => {
        const saved = this.vm.randState;
        this.vm.randState = rand48;
        try {
          return this.run(request);
        } finally {
          rand48 = this.vm.randState;
          this.vm.randState = saved;
        }
      },
    };
  }

  /** Throws the VM away and starts a fresh one (math.random's state survives). */
  restart(): void {
    this.compiled.clear();
    this.vm.open();
  }

  private execute(request: ScriptRequest): Reply {
    let id = this.compiled.get(request.body);
    if (id === undefined) {
      if (this.compiled.size >= COMPILED_MAX) this.forgetAll();
      id = (this.nextId++).toString(16).padStart(40, '0');
      const message = this.vm.compile(id, request.body);
      if (message !== null)
        return error(`ERR Error compiling script (new function): ${message}`.replace(/[\r\n]/g, ' '));
      this.compiled.set(request.body, id);
    }
    const outcome = this.vm.eval(id, request.keys, request.args, (argv) => encodeResp2(callServer(request, argv)));
    return outcome.ok ? decodeResp2(outcome.reply) : failureReply(outcome, request.sha, this.vm.refusedAtLine);
  }

  private forgetAll(): void {
    for (const id of this.compiled.values()) this.vm.forget(id);
    this.compiled.clear();
  }
}

/** Where rand48 starts in a fresh redis-server (Redis's rand.c: 0x1234ABCD330E, never seeded). */
const RAND48_INITIAL = 0x1234abcd330e;

/** Runs one command for the script; a command that throws answers an error reply instead. */
function callServer(request: ScriptRequest, argv: string[]): Reply {
  try {
    return request.call(argv);
  } catch (e) {
    return error(`ERR ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The reply for a failed script, as eval.c builds it: an error table's `err` with its
 * ` script: <sha>, on <source>:<line>.`, or `Error running script` with Lua's message (the memory
 * cap's adds the script line the allocator refused at, which Lua does not give).
 */
function failureReply(outcome: Extract<Lua51Outcome, { ok: false }>, sha: string, refusedAtLine: number): Reply {
  // A table without `err` (error({foo='x'})) crashes redis-server 7.0.15; the simulator answers this.
  if (outcome.fields !== null && outcome.fields.err === '')
    return error(`ERR Error running script ${sha}, execution failure`);
  if (outcome.fields !== null) {
    const { err, source, line } = outcome.fields;
    return error(source !== '' && line !== '' ? `${err} script: ${sha}, on ${source}:${line}.` : err);
  }
  const where = outcome.status === LUA_ERRMEM && refusedAtLine > 0 ? `, on @user_script:${refusedAtLine}.` : '';
  return error(`ERR Error running script ${sha}, ${outcome.message}${where}`);
}
