import { commandLabel, RENEW_IF_MINE } from './lockScripts';
import { acquired, failure, granted, integerOf, renewal, type Recipe, type RecipeContextOn } from './recipe';

/**
 * The two classic broken recipes, each two commands where one was needed:
 * - get-then-set: `GET key`; if empty, `SET key value PX ttl`. Two clients can both see it empty
 *   between the two commands and both set it: both believe they hold the lock.
 * - setnx-then-expire: `SETNX key value`, then `EXPIRE`. A crash between the two leaves a lock
 *   with no expiry: nobody ever gets it again.
 * Both release with a plain `DEL`, as the tutorials that teach them do.
 */
export function twoStepRecipe<Node>(ctx: RecipeContextOn<Node>, kind: 'get-then-set' | 'setnx-then-expire'): Recipe {
  const node = ctx.nodes[0]!;
  const call = (argv: string[], done: Parameters<RecipeContextOn<Node>['rpc']['call']>[3], leaseOf?: string) =>
    ctx.rpc.call(node, argv, commandLabel, done, undefined, leaseOf);
  /** Runs `next` after the recipe's think time, work of its own that a pause stops where it is. */
  const thenAfterGap = (next: () => void) => (ctx.gapMs > 0 ? ctx.process.compute(ctx.gapMs, next) : next());

  const getThenSet = (key: string, done: (r: Parameters<Parameters<Recipe['acquire']>[1]>[0]) => void) =>
    call(['GET', key], (got) => {
      if (!got.ok || got.reply.type !== 'bulk') return done(failure(got));
      if (got.reply.value !== null) return done({ ok: false, reason: 'busy' });
      thenAfterGap(() =>
        call(
          ['SET', key, ctx.value, 'PX', String(ctx.ttlMs)],
          (set) => done(acquired(set, set.ok && set.reply.type === 'status' ? granted(set) : null)),
          key,
        ),
      );
    });

  const setnxThenExpire = (key: string, done: (r: Parameters<Parameters<Recipe['acquire']>[1]>[0]) => void) =>
    call(['SETNX', key, ctx.value], (setnx) => {
      if (!setnx.ok || integerOf(setnx.reply) !== 1) return done(failure(setnx));
      if (setnx.refusal !== undefined) return done(acquired(setnx, granted(setnx)));
      // The client believes it holds the key whatever PEXPIRE answered: the lease is what Redis
      // then has (none at all, if the expiry never arrived).
      thenAfterGap(() => call(['PEXPIRE', key, String(ctx.ttlMs)], (expire) => done(granted(expire)), key));
    });

  return {
    reentrant: false,
    acquire: kind === 'get-then-set' ? getThenSet : setnxThenExpire,
    release(key, done) {
      call(['DEL', key], (result) => done(result.ok && (integerOf(result.reply) ?? 0) > 0));
    },
    renew(key, done) {
      call(['EVAL', RENEW_IF_MINE, '1', key, ctx.value, String(ctx.ttlMs)], (result) => done(renewal(result)));
    },
  };
}
