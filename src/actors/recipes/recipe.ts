import type { Reply } from '../../redis/reply';
import type { Process } from '../process/process';
import type { RedisNode } from '../server/redisNode';
import type { CommandLabeler, RpcResult } from '../client/rpc';

/**
 * A lock taken: its fencing token, if any; `leaseMs`, the lease the key got (its PTTL on Redis
 * just after the command that set it, null for a key with no expiry); and, for Redlock alone,
 * `validityMs`, how long the client may use the lock (TTL − elapsed − drift, see redlock.ts).
 */
export interface Granted {
  ok: true;
  token: number | null;
  leaseMs: number | null;
  validityMs?: number;
}

/** The outcome of one attempt to take a lock. */
export type AcquireResult =
  | Granted
  | { ok: false; reason: 'busy' | 'timeout' }
  /** The write went through, but the client library refused to count it (`refusal` says why, e.g. WAIT's count). */
  | { ok: false; reason: 'busy'; refusal: string; release: boolean }
  /** Redis answered with an error that says the command is wrong; `error` is its text. */
  | { ok: false; reason: 'error'; error: string };

/** A try that did not get the lock. */
export type FailedAcquire = Extract<AcquireResult, { ok: false }>;

/** renewed: Redis confirmed; lost: Redis said the key is not ours; unknown: no answer in time. */
export type RenewResult = 'renewed' | 'lost' | 'unknown';

/**
 * One lock recipe's protocol with Redis, in plain code: which commands it sends, in what order,
 * and what each answer means. The lock client machine decides when to call these (retry, renew,
 * give up); a recipe only carries a decision out and reports back through `done`.
 */
export interface Recipe {
  acquire(key: string, done: (result: AcquireResult) => void): void;
  release(key: string, done: (deleted: boolean) => void): void;
  renew(key: string, done: (result: RenewResult) => void): void;
  /** True when taking a lock you already hold succeeds (and must be released as many times). */
  readonly reentrant: boolean;
}

/**
 * How a recipe reaches its nodes: one command to one node, and its answer (or none in time).
 * The simulator's Rpc is one; the reality harness's real connection is another
 * (src/reality/coreRecipe.ts), so a recipe's commands and its reading of each answer are one
 * piece of code in both worlds.
 */
export interface RecipeRpc<Node> {
  call(
    address: Node,
    argv: string[],
    labeler: CommandLabeler,
    done: (result: RpcResult) => void,
    timeoutMs?: number | null,
    leaseOf?: string,
  ): void;
}

/** What a recipe works with, its nodes of type `Node` (the simulator's, or real ones). */
export interface RecipeContextOn<Node> {
  rpc: RecipeRpc<Node>;
  /** Work that a pause stops where it is (a two-step recipe's think time). */
  process: Pick<Process, 'compute'>;
  /** The node(s) this client talks to: one, or N independent masters for Redlock. */
  nodes: readonly Node[];
  /** This client's random lock value. */
  value: string;
  ttlMs: number;
  /** Ask for a fencing token with the lease (recipes that can issue one). */
  fencing: boolean;
  /** Think time between the two commands of a two-step recipe (GET then SET, SETNX then EXPIRE). */
  gapMs: number;
  /** How many clients a semaphore lets in at once. */
  permits: number;
}

/** The simulator's: its Redis nodes, and the whole process (Redlock reads its monotonic clock). */
export interface RecipeContext extends RecipeContextOn<RedisNode> {
  process: Process;
}

/**
 * The lease a granting reply reports for its key (see `KeyLease` in rpc.ts): the key's PTTL
 * right after the command ran, null when it has no expiry, 0 when it was already gone.
 */
export function leaseOf(result: RpcResult): number | null {
  if (!result.ok || result.lease === undefined) return null;
  return result.lease.pttlMs === undefined ? 0 : result.lease.pttlMs;
}

/** A grant with the lease `result` reports. */
export function granted(result: RpcResult, token: number | null = null): Granted {
  return { ok: true, token, leaseMs: leaseOf(result) };
}

/** An integer reply as a JS number (fencing tokens, counts). */
export function integerOf(reply: Reply): number | null {
  return reply.type === 'integer' ? Number(reply.value) : null;
}

// The two common failures, shared: a contended client fails thousands of times.
const TIMED_OUT: FailedAcquire = Object.freeze({ ok: false, reason: 'timeout' });
const BUSY: FailedAcquire = Object.freeze({ ok: false, reason: 'busy' });

/**
 * Error codes that name a passing condition of the server rather than a wrong command: too
 * few replicas in reach, a node that is a replica (for now), a script running, a dataset
 * loading, memory full, a cluster reconfiguring. Another try later can succeed, so for the
 * client such a reply means what a taken lock means: not now.
 */
const PASSING_ERRORS = new Set([
  'NOREPLICAS',
  'READONLY',
  'BUSY',
  'LOADING',
  'OOM',
  'TRYAGAIN',
  'MASTERDOWN',
  'CLUSTERDOWN',
]);

/**
 * Maps a transport result that is not the success hoped for to "busy", "timeout" or "error".
 * An error reply is an error (the client stops: see Tries) unless its code names a passing condition.
 */
export function failure(result: RpcResult): FailedAcquire {
  if (!result.ok) return TIMED_OUT;
  const { reply } = result;
  if (reply.type !== 'error' || PASSING_ERRORS.has(reply.value.split(' ', 1)[0]!)) return BUSY;
  return { ok: false, reason: 'error', error: reply.value };
}

/**
 * What an acquire's answer comes to: `grant` when Redis's reply granted the lock (null when it
 * did not, see `failure`), unless the client library refused to count it (too few replicas
 * after WAIT): then a "not now" that carries the refusal's reason.
 */
export function acquired(result: RpcResult, grant: AcquireResult | null): AcquireResult {
  if (grant === null || !result.ok) return failure(result);
  return result.refusal === undefined
    ? grant
    : { ok: false, reason: 'busy', refusal: result.refusal, release: result.releaseRefused === true };
}

/**
 * What a renewal's answer comes to: renewed when Redis extended the key (1) and the client
 * library counted it; lost when Redis said the key is not ours; unknown without an answer, on an
 * error reply, or when the extension was refused (too few replicas after WAIT).
 */
export function renewal(result: RpcResult): RenewResult {
  if (!result.ok || result.reply.type === 'error') return 'unknown';
  if (integerOf(result.reply) !== 1) return 'lost';
  return result.refusal === undefined ? 'renewed' : 'unknown';
}

/** True when Redis's answer came and the client library counted it (no refusal after WAIT). */
export function counted(result: RpcResult): result is Extract<RpcResult, { ok: true }> {
  return result.ok && result.refusal === undefined;
}
