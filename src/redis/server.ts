import { error, integer, type Reply } from './reply';
import { Keyspace, type Entry } from './keyspace';
import { defaultConfig, type ConfigValues } from './config';
import { errors } from './errors';
import { resolveCommand } from './commandTable';
import type { CommandContext, CommandSpec, DebugSwitches, NodeServices } from './command';
import { describeValue, estimateUsedMemoryBytes } from './inspect';
import { activeExpireCycle } from './activeExpire';
import { snapshotCommands } from './snapshot';
import { pickVictim } from './eviction';
import { clusterRedirect } from './clusterRouting';
import type { RedisServerOptions } from './serverOptions';
import { parseShebang, scriptCommandFlags, type ScriptFlags } from './scriptFlags';

/** What `peek` and `entries` report about one key. */
export interface KeyView {
  type: 'string' | 'hash' | 'zset' | 'list';
  /** The string value, or a short summary for other types. */
  value: string;
  expiresAtMs: number | null;
}

/** The message EVAL answers when no Lua engine was given to this node. */
export const NO_SCRIPT_ENGINE = 'ERR scripting is not available: no Lua engine is loaded in this simulator';

/** What a `#!lua flags=no-writes` script gets for a write command. */
const SCRIPT_READ_ONLY = error('ERR Write commands are not allowed from read-only scripts.');

/**
 * One simulated Redis 7.0 node: a keyspace, a command table with Redis's validation order,
 * expiry (lazy and active), the script cache and the CONFIG settings that matter for locks.
 */
export class RedisServer {
  readonly config: ConfigValues = defaultConfig();
  private readonly db: Keyspace;
  private readonly scriptCache = new Map<string, string>();
  private readonly services: NodeServices;
  private scriptTimeMs: number | null = null;
  private scriptWrote = false;
  private scriptOomAtStart = false;
  /** The running script's shebang flags; null in compatibility mode (no shebang). */
  private scriptFlags: ScriptFlags | null = null;
  private pendingEffects: string[][] = [];
  /** What DEBUG has switched (DebugSwitches); DEBUG itself sets them through the node's services. */
  readonly debug: DebugSwitches = { activeExpire: true, denyScripts: true };
  /** Count of dataset changes, like Redis's `server.dirty`. */
  dirty = 0;
  /**
   * Bound once per server rather than per command: every command and script reads the clock
   * or calls back, and a closure made per call was a measurable share of a busy run.
   */
  private readonly clock = (): number => this.now();
  private readonly scriptCall = (argv: string[]): Reply => this.callFromScript(argv);

  constructor(private readonly options: RedisServerOptions) {
    this.db = new Keyspace(
      () => this.now(),
      (key) => this.pendingEffects.push(['DEL', key]),
    );
    // Plain properties only: an object literal with a getter gets a hidden class of its own in
    // V8, allocated in the old generation, and everything it points to then outlives the young
    // generation's collections. With one server per run, that made a seed sweep spend a third
    // of its time in the garbage collector.
    this.services = {
      config: this.config,
      scripts: options.scripts,
      scriptCache: this.scriptCache,
      runScript: (body, sha, keys, args) => this.runScript(body, sha, keys, args),
      sleep: (ms) => this.options.sleep?.(ms),
      debug: this.debug,
      wait: (numReplicas, timeoutMs) => this.wait(numReplicas, timeoutMs),
      clusterEnabled: (options.clusterEnabled ?? false) || options.cluster !== undefined,
      flushAll: () => this.db.clear(),
    };
  }

  /** Runs one client command (argv[0] case-insensitive) and returns Redis's reply. */
  exec(argv: string[]): Reply {
    this.discardStaleEffects();
    this.db.expiresKeys = !this.isReplica();
    const reply = this.process(argv);
    this.flushEffects();
    return reply;
  }

  /** Applies one command from this node's primary: no READONLY, OOM or min-replicas checks. */
  execFromPrimary(argv: string[]): Reply {
    this.discardStaleEffects();
    this.db.expiresKeys = !this.isReplica();
    this.db.seesExpired = this.isReplica();
    try {
      const resolved = resolveCommand(argv);
      const reply = resolved.ok ? this.run(resolved.spec, argv, false) : resolved.reply;
      this.flushEffects();
      return reply;
    } finally {
      this.db.seesExpired = false;
    }
  }

  /**
   * Runs a command on behalf of a running script (ScriptRequest.call): script rules apply,
   * time stays frozen at the script's start, and errors come back as error replies.
   */
  callFromScript(argv: string[]): Reply {
    const resolved = resolveCommand(argv);
    if (!resolved.ok) {
      return resolved.unknown
        ? error('ERR Unknown Redis command called from script')
        : error('ERR Wrong number of args calling Redis command from script');
    }
    const { spec } = resolved;
    if (spec.flags.noscript && this.debug.denyScripts) return errors.notAllowedFromScript;
    if (spec.flags.write && this.scriptFlags?.noWrites) return SCRIPT_READ_ONLY;
    if (spec.flags.write) {
      if (this.isReplica()) return error("READONLY You can't write against a read only replica.");
      if (!this.goodReplicasOk()) return errors.noReplicas;
    }
    // Like Redis, a script that has not written yet is refused a memory-growing command when
    // the node was over maxmemory as the script started; once it has written it must finish.
    if (spec.flags.denyoom && !this.scriptWrote && this.scriptOomAtStart && !this.scriptFlags?.allowOom)
      return errors.oom;
    const reply = this.run(spec, argv, true);
    if (spec.flags.write) this.scriptWrote = true;
    return reply;
  }

  /** One active-expiry cycle (sampling with `random`); returns the keys it deleted. */
  activeExpireCycle(): string[] {
    if (this.isReplica() || !this.debug.activeExpire) return [];
    this.discardStaleEffects();
    const deleted = activeExpireCycle(this.db, this.now(), this.options.random);
    for (const key of deleted) this.pendingEffects.push(['DEL', key]);
    this.flushEffects();
    return deleted;
  }

  /** A key's live value without side effects; expired keys read as absent. */
  peek(key: string): KeyView | undefined {
    const entry = this.db.peek(key, this.now());
    return entry ? view(entry) : undefined;
  }

  /**
   * A key as it is stored, without side effects, even when logically expired: Redis keeps such
   * a key in memory until an active-expiry cycle or a command touching it deletes it.
   */
  peekStored(key: string): KeyView | undefined {
    const entry = this.db.raw(key);
    return entry ? view(entry) : undefined;
  }

  /**
   * A key's expiry (unix ms) as peek() would give it, null for no TTL, undefined when the key is
   * absent; `stored`: as peekStored() would. The lease watchers ask it after every command, so it
   * builds no view.
   */
  expiryOf(key: string, stored: boolean): number | null | undefined {
    return this.entryOf(key, stored)?.expiresAtMs;
  }

  /**
   * What a lock holder wrote at `key` (`stored` as in expiryOf): a string's value, or a hash's
   * first field (Redisson's lock is a hash whose field names its owner); undefined otherwise.
   */
  lockValueOf(key: string, stored: boolean): string | undefined {
    const value = this.entryOf(key, stored)?.value;
    if (value?.type === 'string') return value.value;
    if (value?.type === 'hash') return value.value.keys().next().value;
    return undefined;
  }

  private entryOf(key: string, stored: boolean): Entry | undefined {
    return stored ? this.db.raw(key) : this.db.peek(key, this.now());
  }

  /** The earliest expiry (unix ms) of any stored key, for scheduling active expiry; null: none. */
  earliestExpiryMs(): number | null {
    return this.db.earliestExpiry();
  }

  /** Every live key (`stored`: every key kept, expired or not) sorted by name, without side effects (for the inspector panel). */
  entries(stored = false): Array<{ key: string } & KeyView> {
    const now = this.now();
    const out: Array<{ key: string } & KeyView> = [];
    for (const key of this.db.keys().sort()) {
      const entry = stored ? this.db.raw(key) : this.db.peek(key, now);
      if (entry) out.push({ key, ...view(entry) });
    }
    return out;
  }

  /**
   * Loads commands (an AOF being replayed, a full-resync snapshot) without propagating them:
   * they are already in the file, or already came from the primary.
   */
  load(commands: readonly string[][]): void {
    const onPropagate = this.options.onPropagate;
    this.options.onPropagate = undefined;
    try {
      for (const argv of commands) this.execFromPrimary([...argv]);
    } finally {
      this.options.onPropagate = onPropagate;
    }
  }

  /** The live dataset as commands that rebuild it (a full resync's snapshot), TTLs absolute. */
  snapshot(): string[][] {
    return snapshotCommands(this.db, this.now());
  }

  /** Empties the dataset (not the config or the script cache), like FLUSHALL. */
  flushAll(): void {
    this.db.clear();
  }

  /** Number of stored keys, including expired ones not reclaimed yet (like DBSIZE). */
  get storedKeyCount(): number {
    return this.db.size;
  }

  /** The node's current time: frozen at the script's start while a script runs. */
  private now(): number {
    return this.scriptTimeMs ?? this.options.clock();
  }

  private isReplica(): boolean {
    return this.options.replication?.isReplica() ?? false;
  }

  /** Redis's checkGoodReplicasStatus: only a primary with both min-replicas settings can refuse. */
  private goodReplicasOk(): boolean {
    const toWrite = this.config['min-replicas-to-write'];
    if (this.isReplica() || this.config['min-replicas-max-lag'] === 0 || toWrite === 0) return true;
    return (this.options.replication?.goodReplicas() ?? 0) >= toWrite;
  }

  private usedMemoryBytes(): number {
    return this.options.memory?.usedBytes() ?? estimateUsedMemoryBytes(this.db);
  }

  /** True when maxmemory is set and the node is above it (after any eviction pass). */
  private overMaxmemory(): boolean {
    if (this.config.maxmemory === 0) return false;
    if (this.options.memory?.performEvictions) this.options.memory.performEvictions();
    else if (!this.isReplica()) this.evictUntilUnderMaxmemory();
    return this.usedMemoryBytes() > this.config.maxmemory;
  }

  /** Redis's performEvictions: evict by policy until under maxmemory or out of candidates. */
  private evictUntilUnderMaxmemory(): void {
    const policy = this.config['maxmemory-policy'];
    while (this.usedMemoryBytes() > this.config.maxmemory) {
      const key = pickVictim(this.db, policy, this.options.random);
      if (key === undefined) return;
      this.db.delete(key);
      this.pendingEffects.push(['DEL', key]);
      this.options.onEvict?.(key);
    }
  }

  /** Redis's processCommand checks, in its order: lookup, arity, OOM, min-replicas, READONLY. */
  private process(argv: string[]): Reply {
    const resolved = resolveCommand(argv);
    if (!resolved.ok) return resolved.reply;
    const { spec } = resolved;
    if (this.options.cluster) {
      const redirect = clusterRedirect(argv, this.options.cluster);
      if (redirect) return redirect;
    }
    // A script with a shebang declares its flags, and they replace EVAL's own (which say
    // neither write nor deny-oom): Redis checks them before running it, like any command's.
    const flags =
      spec.name === 'eval' || spec.name === 'evalsha'
        ? scriptCommandFlags(spec.flags, this.scriptBody(argv))
        : spec.flags;
    const outOfMemory = this.overMaxmemory();
    if (outOfMemory && flags.denyoom) return errors.oom;
    if (flags.write && !this.goodReplicasOk()) return errors.noReplicas;
    if (flags.write && this.isReplica()) return error("READONLY You can't write against a read only replica.");
    this.scriptOomAtStart = outOfMemory;
    return this.run(spec, argv, false);
  }

  private run(spec: CommandSpec, argv: string[], fromScript: boolean): Reply {
    const ctx = new CommandRun(argv, this.db, this.services, fromScript, this.clock);
    const reply = (spec.run as (ctx: CommandContext) => Reply)(ctx);
    this.dirty += ctx.changes;
    if (ctx.explicit !== null) this.pendingEffects.push(...ctx.explicit);
    else if (ctx.changes > 0) this.pendingEffects.push([...argv]);
    return reply;
  }

  /** The body an EVAL or EVALSHA would run, if known, for its shebang flags. */
  private scriptBody(argv: string[]): string | undefined {
    if (argv[0]?.toLowerCase() === 'eval') return argv[1];
    return argv[1] === undefined ? undefined : this.scriptCache.get(argv[1].toLowerCase());
  }

  private runScript(body: string, sha: string, keys: string[], args: string[]): Reply {
    const engine = this.options.scripts;
    if (!engine) return error(NO_SCRIPT_ENGINE);
    const shebang = parseShebang(body);
    if ('error' in shebang) return error(`ERR ${shebang.error}`);
    if (shebang.flags?.noCluster && this.services.clusterEnabled) {
      return error("ERR Can not run script on cluster, 'no-cluster' flag is set.");
    }
    this.scriptTimeMs = this.options.clock();
    this.scriptWrote = false;
    this.scriptFlags = shebang.flags;
    // Lua compiles what follows the shebang line, starting at its line feed, so line numbers
    // in errors still count the shebang as line 1.
    const source = shebang.lineLength > 0 ? body.slice(shebang.lineLength) : body;
    try {
      return engine.run({ body: source, sha, keys, args, call: this.scriptCall });
    } finally {
      this.scriptTimeMs = null;
      this.scriptFlags = null;
    }
  }

  private wait(numReplicas: number, timeoutMs: number): Reply {
    if (this.isReplica()) {
      return error(
        'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
      );
    }
    if (this.options.replication) return this.options.replication.wait(numReplicas, timeoutMs);
    // A standalone node has no replica to wait for: Redis blocks for the timeout and answers 0.
    if (numReplicas > 0 && timeoutMs > 0) this.options.sleep?.(timeoutMs);
    return integer(0);
  }

  /**
   * Starts a command with no effects pending, dropping any a failed command left behind.
   * Most commands (a refused SET NX) propagate nothing, so the empty list is kept rather than
   * replaced by a new one per command.
   */
  private discardStaleEffects(): void {
    if (this.pendingEffects.length > 0) this.pendingEffects = [];
  }

  /** Hands the pending effects to onPropagate, which may keep the list: the next gets a new one. */
  private flushEffects(): void {
    if (this.pendingEffects.length === 0) return;
    this.options.onPropagate?.(this.pendingEffects);
    this.pendingEffects = [];
  }
}

/**
 * One command's context: a class with shared methods, so that running a command allocates one
 * small object and no closures. A script's commands each get their own (runs nest).
 */
class CommandRun implements CommandContext {
  changes = 0;
  /** Effects the command chose to propagate instead of its argv; null when it chose none. */
  explicit: string[][] | null = null;

  constructor(
    readonly argv: string[],
    readonly db: Keyspace,
    readonly node: NodeServices,
    readonly fromScript: boolean,
    private readonly clock: () => number,
  ) {}

  now(): number {
    return this.clock();
  }

  dirty(count = 1): void {
    this.changes += count;
  }

  propagate(effect: string[]): void {
    (this.explicit ??= []).push(effect);
  }
}

function view(entry: Entry): KeyView {
  return { type: entry.value.type, value: describeValue(entry.value), expiresAtMs: entry.expiresAtMs };
}
