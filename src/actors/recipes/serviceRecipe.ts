import type { LockService } from '../services/lockService';
import type { ServiceRpc } from '../services/serviceRpc';
import type { Recipe, RecipeContext } from './recipe';

/**
 * Takes the lock from a lock service instead of Redis (recipes `lease-service` and `db-lock`):
 * one `LOCK` request answers with a token or "taken", `KEEPALIVE` renews, `UNLOCK` releases.
 * The service's token (an etcd revision, a database sequence value) goes with each write when
 * the resource checks tokens (or the client asks for them with `tokens: true`).
 */
export function serviceRecipe(ctx: RecipeContext, service: LockService, rpc: ServiceRpc): Recipe {
  return {
    reentrant: false,
    acquire(key, done) {
      rpc.call(service, ['LOCK', key, ctx.value, String(ctx.ttlMs)], (result) => {
        if (!result.ok) return done({ ok: false, reason: 'timeout' });
        if (result.answer === null) return done({ ok: false, reason: 'busy' });
        // The service grants exactly the TTL asked for (see leaseService.ts, dbLockTable.ts).
        done({ ok: true, token: ctx.fencing ? result.answer : null, leaseMs: ctx.ttlMs });
      });
    },
    release(key, done) {
      rpc.call(service, ['UNLOCK', key, ctx.value], (result) => done(result.ok && result.answer === 1));
    },
    renew(key, done) {
      rpc.call(service, ['KEEPALIVE', key, ctx.value, String(ctx.ttlMs)], (result) =>
        done(!result.ok ? 'unknown' : result.answer === 1 ? 'renewed' : 'lost'),
      );
    },
  };
}
