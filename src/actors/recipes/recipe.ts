import type { Reply } from '../../redis/reply';
import type { Process } from '../process';
import type { RedisNode } from '../redisNode';
import type { Rpc, RpcResult } from '../rpc';

/** The outcome of one attempt to take a lock. */
export type AcquireResult =
  | { ok: true; token: number | null; validityMs: number }
  | { ok: false; reason: 'busy' | 'timeout' | 'error' };

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

/** What every recipe works with. */
export interface RecipeContext {
  rpc: Rpc;
  process: Process;
  /** The node(s) this client talks to: one, or N independent masters for Redlock. */
  nodes: readonly RedisNode[];
  /** This client's random lock value. */
  value: string;
  ttlMs: number;
  /** Ask for a fencing token with the lease (recipes that can issue one). */
  fencing: boolean;
  /** Think time between the two commands of a two-step recipe (GET then SET, SETNX then EXPIRE). */
  gapMs: number;
}

/** An integer reply as a JS number (fencing tokens, counts). */
export function integerOf(reply: Reply): number | null {
  return reply.type === 'integer' ? Number(reply.value) : null;
}

// The three failures, shared: a contended client fails thousands of times.
const TIMED_OUT: AcquireResult = Object.freeze({ ok: false, reason: 'timeout' });
const ERRORED: AcquireResult = Object.freeze({ ok: false, reason: 'error' });
const BUSY: AcquireResult = Object.freeze({ ok: false, reason: 'busy' });

/** Maps a transport result to "busy"/"timeout"/"error" when it is not the success we hoped for. */
export function failure(result: RpcResult): AcquireResult {
  if (!result.ok) return TIMED_OUT;
  return result.reply.type === 'error' ? ERRORED : BUSY;
}
