import { commandLabel, ACQUIRE_WITH_FENCE, RELEASE_IF_MINE, RENEW_IF_MINE } from './lockScripts';
import { acquired, failure, granted, integerOf, renewal, type Recipe, type RecipeContextOn } from './recipe';

/**
 * `SET key value NX PX ttl`: one atomic command takes the lease. Released either with a plain
 * `DEL` (which deletes whoever's lease is there now) or with a check-and-delete script.
 * With fencing, acquisition and `INCR` of a token counter run as one script.
 */
export function leaseRecipe<Node>(ctx: RecipeContextOn<Node>, release: 'plain-del' | 'check-and-delete'): Recipe {
  const node = ctx.nodes[0]!;
  const ttl = String(ctx.ttlMs);
  const call = (argv: string[], done: Parameters<RecipeContextOn<Node>['rpc']['call']>[3], leaseOf?: string) =>
    ctx.rpc.call(node, argv, commandLabel, done, undefined, leaseOf);
  // A client sends the same acquire (and release) command again and again; the trace keeps the
  // argv of every one, so they share one array per key (nothing downstream changes an argv).
  const argvPerKey = (build: (key: string) => string[]) => {
    const made = new Map<string, string[]>();
    return (key: string): string[] => {
      let argv = made.get(key);
      if (argv === undefined) made.set(key, (argv = build(key)));
      return argv;
    };
  };
  const acquireCommand = argvPerKey((key) =>
    ctx.fencing
      ? ['EVAL', ACQUIRE_WITH_FENCE, '2', key, `${key}:fence`, ctx.value, ttl]
      : ['SET', key, ctx.value, 'NX', 'PX', ttl],
  );
  const releaseCommand = argvPerKey((key) =>
    release === 'plain-del' ? ['DEL', key] : ['EVAL', RELEASE_IF_MINE, '1', key, ctx.value],
  );
  return {
    reentrant: false,
    acquire(key, done) {
      call(
        acquireCommand(key),
        (result) => {
          if (!result.ok) return done(failure(result));
          const { reply } = result;
          if (reply.type === 'status' && reply.value === 'OK') return done(acquired(result, granted(result)));
          if (reply.type === 'integer') return done(acquired(result, granted(result, integerOf(reply))));
          done(failure(result));
        },
        key,
      );
    },
    release(key, done) {
      call(releaseCommand(key), (result) => done(result.ok && (integerOf(result.reply) ?? 0) > 0));
    },
    renew(key, done) {
      call(['EVAL', RENEW_IF_MINE, '1', key, ctx.value, ttl], (result) => done(renewal(result)));
    },
  };
}
