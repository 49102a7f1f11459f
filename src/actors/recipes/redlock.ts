import { monotonicNow } from '../process/monotonicClock';
import { commandLabel, RELEASE_IF_MINE, RENEW_IF_MINE } from './lockScripts';
import { counted, leaseOf, type AcquireResult, type Recipe, type RecipeContext } from './recipe';

/** Redlock's knobs (defaults follow node-redlock v5). */
export interface RedlockOptions {
  /** How long to wait for each master before counting it as a failure. */
  instanceTimeoutMs: number;
  /** Clock drift allowance: drift = round(driftFactor · ttl) + 2 ms. */
  driftFactor: number;
  /**
   * `respected` (the algorithm): the client uses the lock only while its validity lasts; once
   * it runs out, or if it has run out when the work is ready to be written, the client stops
   * believing it holds the lock and unlocks every master. `ignored`: a careless client that
   * checks validity once, when the round ends, and then writes however late it is; lessons use
   * it to stand for a pause or delay that lands after a careful client's last check.
   */
  validity: 'respected' | 'ignored';
}

export const DEFAULT_REDLOCK: RedlockOptions = { instanceTimeoutMs: 50, driftFactor: 0.01, validity: 'respected' };

/**
 * Redlock's commands and arithmetic, apart from any transport: the simulator's recipe below and
 * the reality check's real client (src/reality/realRedlock.ts) both send these and count with
 * these, so the two worlds run one recipe.
 */
export const REDLOCK = {
  /** How many masters must grant the lock: a majority of those the client uses. */
  quorum: (masters: number): number => Math.floor(masters / 2) + 1,
  /** How long the lock may be used: TTL − elapsed − drift, drift = round(driftFactor · ttl) + 2 ms. */
  validityMs: (options: RedlockOptions, ttlMs: number, elapsedMs: number): number =>
    ttlMs - elapsedMs - (Math.round(options.driftFactor * ttlMs) + 2),
  acquireArgv: (key: string, value: string, ttlMs: number): string[] => ['SET', key, value, 'NX', 'PX', String(ttlMs)],
  releaseArgv: (key: string, value: string): string[] => ['EVAL', RELEASE_IF_MINE, '1', key, value],
  renewArgv: (key: string, value: string, ttlMs: number): string[] => [
    'EVAL',
    RENEW_IF_MINE,
    '1',
    key,
    value,
    String(ttlMs),
  ],
};

/**
 * Redlock over N independent masters, as the Redis docs' Redlock page gives it: note the time,
 * ask every master for the lease at once (each with a short timeout), and hold the lock only if
 * a majority granted it and validity = ttl − elapsed − drift is still positive. Otherwise unlock
 * everywhere. Elapsed time is measured on the client's monotonic clock (monotonicClock.ts), as
 * the algorithm's author asks: a wall-clock jump on the client cannot stretch or shrink it,
 * though a clock that runs fast or slow still does (that is what the drift allowance is for).
 * How long the client then uses the lock is LockClient's business (see `validity`).
 */
export function redlockRecipe(ctx: RecipeContext, options: RedlockOptions): Recipe {
  const quorum = REDLOCK.quorum(ctx.nodes.length);
  const releaseAll = (key: string, done: (deleted: boolean) => void) => {
    let pending = ctx.nodes.length;
    let deleted = false;
    for (const node of ctx.nodes) {
      const argv = REDLOCK.releaseArgv(key, ctx.value);
      ctx.rpc.call(
        node,
        argv,
        commandLabel,
        (result) => {
          if (result.ok && result.reply.type === 'integer' && result.reply.value > 0n) deleted = true;
          if (--pending === 0) done(deleted);
        },
        options.instanceTimeoutMs,
      );
    }
  };
  return {
    reentrant: false,
    acquire(key, done) {
      const start = monotonicNow(ctx.process);
      let pending = ctx.nodes.length;
      let granted = 0;
      // The shortest lease a granting master reports: what the majority holds at least.
      let leaseMs: number | null = null;
      for (const node of ctx.nodes) {
        const argv = REDLOCK.acquireArgv(key, ctx.value, ctx.ttlMs);
        ctx.rpc.call(
          node,
          argv,
          commandLabel,
          (result) => {
            if (counted(result) && result.reply.type === 'status') {
              granted++;
              const lease = leaseOf(result);
              if (lease !== null && (leaseMs === null || lease < leaseMs)) leaseMs = lease;
            }
            if (--pending > 0) return;
            const elapsedMs = monotonicNow(ctx.process) - start;
            const validityMs = REDLOCK.validityMs(options, ctx.ttlMs, elapsedMs);
            const outcome: AcquireResult =
              granted >= quorum && validityMs > 0
                ? { ok: true, token: null, leaseMs, validityMs }
                : { ok: false, reason: 'busy' };
            // A failed round unlocks everywhere, so the minority it did get frees up at once.
            if (outcome.ok) done(outcome);
            else releaseAll(key, () => done(outcome));
          },
          options.instanceTimeoutMs,
          key,
        );
      }
    },
    release: releaseAll,
    renew(key, done) {
      let pending = ctx.nodes.length;
      let renewed = 0;
      for (const node of ctx.nodes) {
        const argv = REDLOCK.renewArgv(key, ctx.value, ctx.ttlMs);
        ctx.rpc.call(
          node,
          argv,
          commandLabel,
          (result) => {
            if (counted(result) && result.reply.type === 'integer' && result.reply.value === 1n) renewed++;
            if (--pending === 0) done(renewed >= quorum ? 'renewed' : 'lost');
          },
          options.instanceTimeoutMs,
        );
      }
    },
  };
}
