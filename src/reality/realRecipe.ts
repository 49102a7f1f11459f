import { ACQUIRE_WITH_FENCE, RELEASE_IF_MINE, RENEW_IF_MINE } from '../actors/recipes/lockScripts';
import { failure as simulatorFailure } from '../actors/recipes/recipe';
import { compute } from './compute';
import { asReply } from './replies';
import type { Answer, Ask, Master } from './masterConnection';
import type { ClientConfig } from './protocol';

/**
 * A try at the lock as the real client sees it. `validityRealMs` (Redlock alone): how long from
 * now the lock may be used, TTL − elapsed − drift. `refusal`: Redis granted it, but WAIT counted
 * too few replicas and the client library does not count it (`release`: it gives the key back).
 */
export type Acquired =
  | { ok: true; token: number | null; validityRealMs?: number }
  | { ok: false; reason: 'busy' | 'timeout' | 'error'; error?: string; refusal?: string; release?: boolean };

/** A granted write that WAIT's count made the client refuse (null: none). */
const refused = (a: Answer): Acquired | null =>
  a?.refusal === undefined
    ? null
    : { ok: false, reason: 'busy', refusal: a.refusal, release: a.releaseRefused === true };

/**
 * One recipe's protocol with real Redis, as the simulator's `Recipe` (src/actors/recipes/recipe.ts)
 * has it: which commands go where and what the answers mean. The real client's job loop
 * (lockClientProcess.ts) decides when to call these, as the lock client machine does.
 */
export interface RealRecipe {
  /** Taking it while holding it succeeds, and it is released once per entry (the reentrant recipe). */
  readonly reentrant: boolean;
  acquire(key: string): Promise<Acquired>;
  /** True when some node deleted the key (it was still ours). */
  release(key: string): Promise<boolean>;
  /** renewed: extended; lost: Redis said the key is not ours; unknown: no answer, or an error. */
  renew(key: string): Promise<'renewed' | 'lost' | 'unknown'>;
}

/**
 * A try that did not take the lock, read as the simulator's recipes read it (`failure` in
 * recipe.ts): no answer is a timeout, an error reply that names a passing condition (CLUSTERDOWN,
 * READONLY, NOREPLICAS, …) or any other answer is "busy", and any other error reply an error.
 */
const failure = (a: Answer): Acquired =>
  a === null ? { ok: false, reason: 'timeout' } : simulatorFailure({ ok: true, reply: asReply(a.reply) });

/** The single-node recipes written here; every other one-node recipe runs as the simulator's own (coreRecipe.ts). */
export const HAND_WRITTEN = [
  'lease-plain-del',
  'lease-with-token',
  'watchdog',
  'setnx-then-expire',
  'get-then-set',
] as const;

/**
 * The single-node recipes (lease-plain-del, lease-with-token, watchdog, setnx-then-expire,
 * get-then-set) on `master`, with the catalog's own commands and Lua texts.
 */
export function singleNodeRecipe(config: ClientConfig, master: Master, ask: Ask): RealRecipe {
  const { value, recipe } = config;
  if (recipe === null) throw new Error(`client ${config.id} follows a step list, not a recipe`);
  const ttl = String(config.ttlRealMs);
  const send = (argv: string[]) => ask(master, argv, config.timeoutRealMs);
  const plainDel = ['lease-plain-del', 'setnx-then-expire', 'get-then-set'].includes(recipe);
  return {
    reentrant: false,
    async acquire(key) {
      switch (recipe) {
        case 'get-then-set': {
          const got = await send(['GET', key]);
          if (got === null || got.reply !== null) return failure(got);
          if (config.gapRealMs > 0) await compute(config.gapRealMs);
          const set = await send(['SET', key, value, 'PX', ttl]);
          return refused(set) ?? (set?.reply === 'OK' ? { ok: true, token: null } : failure(set));
        }
        case 'setnx-then-expire': {
          const setnx = await send(['SETNX', key, value]);
          if (setnx?.reply !== 1) return failure(setnx);
          if (refused(setnx)) return refused(setnx)!;
          if (config.gapRealMs > 0) await compute(config.gapRealMs);
          // The client believes it holds the key whatever PEXPIRE answered.
          await send(['PEXPIRE', key, ttl]);
          return { ok: true, token: null };
        }
        default: {
          const a = await send(
            config.fencing
              ? ['EVAL', ACQUIRE_WITH_FENCE, '2', key, `${key}:fence`, value, ttl]
              : ['SET', key, value, 'NX', 'PX', ttl],
          );
          if (refused(a)) return refused(a)!;
          if (a?.reply === 'OK') return { ok: true, token: null };
          if (typeof a?.reply === 'number') return { ok: true, token: a.reply };
          return failure(a);
        }
      }
    },
    async release(key) {
      const a = await send(plainDel ? ['DEL', key] : ['EVAL', RELEASE_IF_MINE, '1', key, value]);
      return typeof a?.reply === 'number' && a.reply > 0 && a.refusal === undefined;
    },
    async renew(key) {
      const a = await send(['EVAL', RENEW_IF_MINE, '1', key, value, ttl]);
      if (a?.refusal !== undefined) return 'unknown';
      if (a !== null && a.reply === 1) return 'renewed';
      return a !== null && a.reply === 0 ? 'lost' : 'unknown';
    },
  };
}
