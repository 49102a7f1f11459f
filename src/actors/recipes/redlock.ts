import { commandLabel, RELEASE_IF_MINE, RENEW_IF_MINE } from './lockScripts';
import { counted, type AcquireResult, type Recipe, type RecipeContext } from './recipe';

/** Redlock's knobs (defaults follow node-redlock v5). */
export interface RedlockOptions {
  /** How long to wait for each master before counting it as a failure. */
  instanceTimeoutMs: number;
  /** Clock drift allowance: drift = round(driftFactor · ttl) + 2 ms. */
  driftFactor: number;
}

export const DEFAULT_REDLOCK: RedlockOptions = { instanceTimeoutMs: 50, driftFactor: 0.01 };

/**
 * Redlock over N independent masters: note the local time, ask every master for the lease at
 * once (each with a short timeout), and hold the lock only if a majority granted it and
 * validity = ttl − elapsed − drift is still positive. Otherwise unlock everywhere. Elapsed time
 * is measured on the client's own clock, so a drifting or jumping clock fools it.
 */
export function redlockRecipe(ctx: RecipeContext, options: RedlockOptions): Recipe {
  const quorum = Math.floor(ctx.nodes.length / 2) + 1;
  const releaseAll = (key: string, done: (deleted: boolean) => void) => {
    let pending = ctx.nodes.length;
    let deleted = false;
    for (const node of ctx.nodes) {
      const argv = ['EVAL', RELEASE_IF_MINE, '1', key, ctx.value];
      ctx.rpc.call(node, argv, commandLabel, (result) => {
        if (result.ok && result.reply.type === 'integer' && result.reply.value > 0n) deleted = true;
        if (--pending === 0) done(deleted);
      }, options.instanceTimeoutMs);
    }
  };
  return {
    reentrant: false,
    acquire(key, done) {
      const startLocal = ctx.process.localNow();
      let pending = ctx.nodes.length;
      let granted = 0;
      for (const node of ctx.nodes) {
        const argv = ['SET', key, ctx.value, 'NX', 'PX', String(ctx.ttlMs)];
        ctx.rpc.call(node, argv, commandLabel, (result) => {
          if (counted(result) && result.reply.type === 'status') granted++;
          if (--pending > 0) return;
          const elapsedMs = ctx.process.localNow() - startLocal;
          const driftMs = Math.round(options.driftFactor * ctx.ttlMs) + 2;
          const validityMs = ctx.ttlMs - elapsedMs - driftMs;
          const outcome: AcquireResult = granted >= quorum && validityMs > 0 ? { ok: true, token: null, validityMs } : { ok: false, reason: 'busy' };
          // A failed round unlocks everywhere, so the minority it did get frees up at once.
          if (outcome.ok) done(outcome);
          else releaseAll(key, () => done(outcome));
        }, options.instanceTimeoutMs);
      }
    },
    release: releaseAll,
    renew(key, done) {
      let pending = ctx.nodes.length;
      let renewed = 0;
      for (const node of ctx.nodes) {
        const argv = ['EVAL', RENEW_IF_MINE, '1', key, ctx.value, String(ctx.ttlMs)];
        ctx.rpc.call(node, argv, commandLabel, (result) => {
          if (counted(result) && result.reply.type === 'integer' && result.reply.value === 1n) renewed++;
          if (--pending === 0) done(renewed >= quorum ? 'renewed' : 'lost');
        }, options.instanceTimeoutMs);
      }
    },
  };
}
