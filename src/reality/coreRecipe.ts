import { oneNodeRecipe, type OneNodeRecipeName } from '../actors/recipes/catalog';
import type { AcquireResult, RecipeContextOn, RenewResult } from '../actors/recipes/recipe';
import type { RpcResult } from '../actors/client/rpc';
import { compute } from './compute';
import type { Ask, Master } from './masterConnection';
import type { ClientConfig } from './protocol';
import type { RealRecipe } from './realRecipe';
import { asReply } from './replies';

/**
 * The simulator's own recipe (src/actors/recipes: its commands, its Lua, its reading of each
 * answer) on a real redis-server: the recipe's connection is `ask` over ioredis, its think time
 * real work that a SIGSTOP stops (compute.ts), its TTL the scaled one. One recipe, two worlds:
 * the pattern recipes (fair, read-write, semaphore, reentrant) run on real processes through
 * this, with nothing of their protocol written twice.
 */
export function coreRecipe(config: ClientConfig, name: OneNodeRecipeName, master: Master, ask: Ask): RealRecipe {
  const ctx: RecipeContextOn<Master> = {
    rpc: {
      call(node, argv, _labeler, done) {
        void ask(node, argv, config.timeoutRealMs).then((answer) =>
          done(
            answer === null
              ? { ok: false, reason: 'timeout' }
              : ({
                  ok: true,
                  reply: asReply(answer.reply),
                  ...(answer.refusal === undefined
                    ? {}
                    : { refusal: answer.refusal, releaseRefused: answer.releaseRefused }),
                } as RpcResult),
          ),
        );
      },
    },
    process: { compute: (ms, run) => (void compute(ms).then(run), 0) },
    nodes: [master],
    value: config.value,
    ttlMs: config.ttlRealMs,
    fencing: config.fencing,
    gapMs: config.gapRealMs,
    permits: config.permits,
  };
  const recipe = oneNodeRecipe(name, ctx);
  return {
    reentrant: recipe.reentrant,
    acquire: (key) =>
      new Promise((resolve) =>
        recipe.acquire(key, (result: AcquireResult) =>
          resolve(
            result.ok
              ? { ok: true, token: result.token }
              : {
                  ok: false,
                  reason: result.reason,
                  ...('error' in result ? { error: result.error } : {}),
                  ...('refusal' in result ? { refusal: result.refusal, release: result.release } : {}),
                },
          ),
        ),
      ),
    release: (key) => new Promise((resolve) => recipe.release(key, resolve)),
    renew: (key) => new Promise<RenewResult>((resolve) => recipe.renew(key, resolve)),
  };
}
