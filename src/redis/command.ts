import type { Reply } from './reply';
import type { Keyspace, Entry, RedisType } from './keyspace';
import type { ConfigValues } from './config';
import type { ScriptEngine } from './scriptEngine';

/** Redis command flags the simulator acts on (a subset of Redis's). */
export interface CommandFlags {
  /** Modifies the dataset: refused on a read-only replica and when min-replicas is not met. */
  write?: boolean;
  /** May grow memory: refused with OOM when over maxmemory under noeviction. */
  denyoom?: boolean;
  /** Refused inside scripts (`This Redis command is not allowed from script`). */
  noscript?: boolean;
  /**
   * Changes nothing a later command could see (Redis's `readonly`, and PING, ECHO, TIME, CONFIG
   * GET). The player's console answers such a command at the playhead instead of making it an
   * action of the run: a look is not a change.
   */
  readonly?: boolean;
}

/** One entry of the command table. `name` is the lower-case full name (`config|set`). */
export interface CommandSpec {
  name: string;
  /** Redis arity: n means exactly n arguments (command name included), -n at least n. */
  arity: number;
  flags: CommandFlags;
  run?: (ctx: CommandContext) => Reply;
  /** Container commands (CONFIG, SCRIPT, CLUSTER) dispatch on argv[1]. */
  subcommands?: Record<string, CommandSpec>;
}

/**
 * DEBUG's switches on a node: `activeExpire` (SET-ACTIVE-EXPIRE 0 stops the active-expiry
 * cycles, so only a command touching an expired key deletes it) and `denyScripts`
 * (SET-DISABLE-DENY-SCRIPTS 1 lets scripts call the commands normally refused to them; Redis's
 * own tests use it for DEBUG SLEEP).
 */
export interface DebugSwitches {
  activeExpire: boolean;
  denyScripts: boolean;
}

/** Node-level services a command may need beyond the keyspace. */
export interface NodeServices {
  readonly config: ConfigValues;
  readonly scripts: ScriptEngine | undefined;
  /** Cached script bodies by lower-case SHA1. */
  readonly scriptCache: Map<string, string>;
  /** Runs a script body through the engine with script rules applied. */
  runScript(body: string, sha: string, keys: string[], args: string[]): Reply;
  /** Advances this node's virtual clock (DEBUG SLEEP). */
  sleep(ms: number): void;
  /** What DEBUG has switched: read by the server and its active-expiry cycle. */
  readonly debug: DebugSwitches;
  /** WAIT: how many replicas acknowledged; a standalone node has none. */
  wait(numReplicas: number, timeoutMs: number): Reply;
  /** Whether this node is a cluster node (CLUSTER KEYSLOT answers only then). */
  readonly clusterEnabled: boolean;
  /** Empties the dataset (FLUSHALL). */
  flushAll(): void;
}

/** What a command handler sees while it runs. */
export interface CommandContext {
  readonly argv: string[];
  readonly db: Keyspace;
  readonly node: NodeServices;
  /** This command's notion of now (frozen while a script runs). */
  now(): number;
  /** Counts a change to the dataset, like Redis's `server.dirty++`. */
  dirty(count?: number): void;
  /** Replaces the default propagation (argv as received) with explicit effect commands. */
  propagate(argv: string[]): void;
  readonly fromScript: boolean;
}

/** Outcome of looking up a key for a typed command. */
export type TypedLookup<V> = { ok: true; value: V | undefined; entry: Entry | undefined } | { ok: false };

/** The stored JavaScript value of a given Redis type. */
export type ValueOf<T extends RedisType> = Extract<Entry['value'], { type: T }>['value'];

/** Looks up a key expecting `type`; `ok: false` means WRONGTYPE. */
export function lookupTyped<T extends RedisType>(db: Keyspace, key: string, type: T): TypedLookup<ValueOf<T>> {
  const entry = db.lookup(key);
  if (entry === undefined) return { ok: true, value: undefined, entry: undefined };
  if (entry.value.type !== type) return { ok: false };
  return { ok: true, value: entry.value.value, entry } as TypedLookup<ValueOf<T>>;
}
