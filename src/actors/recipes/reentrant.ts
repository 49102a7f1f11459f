import { commandLabel, REENTRANT_ACQUIRE, REENTRANT_RELEASE, REENTRANT_RENEW } from './lockScripts';
import { acquired, granted, integerOf, renewal, type Recipe, type RecipeContextOn } from './recipe';

/**
 * A reentrant lock (Redisson's layout): the key is a hash whose field is the owner's value and
 * whose count says how many times the owner has entered. Taking it again while holding it just
 * counts up; each release counts down; the last one deletes the key.
 */
export function reentrantRecipe<Node>(ctx: RecipeContextOn<Node>): Recipe {
  const node = ctx.nodes[0]!;
  const script = (
    body: string,
    key: string,
    done: Parameters<RecipeContextOn<Node>['rpc']['call']>[3],
    leaseOf?: string,
  ) => {
    const argv = ['EVAL', body, '1', key, ctx.value, String(ctx.ttlMs)];
    ctx.rpc.call(node, argv, commandLabel, done, undefined, leaseOf);
  };
  return {
    reentrant: true,
    acquire(key, done) {
      script(
        REENTRANT_ACQUIRE,
        key,
        (result) => done(acquired(result, result.ok && result.reply.type === 'integer' ? granted(result) : null)),
        key,
      );
    },
    release(key, done) {
      script(REENTRANT_RELEASE, key, (result) => done(result.ok && (integerOf(result.reply) ?? 0) > 0));
    },
    renew(key, done) {
      script(REENTRANT_RENEW, key, (result) => done(renewal(result)));
    },
  };
}
