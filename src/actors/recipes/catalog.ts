import { leaseRecipe } from './lease';
import type { Recipe, RecipeContext, RecipeContextOn } from './recipe';
import { reentrantRecipe } from './reentrant';
import { redlockRecipe, type RedlockOptions } from './redlock';
import { fairRecipe, readWriteRecipe, semaphoreRecipe } from './patterns';
import { twoStepRecipe } from './twoStep';

/**
 * Every lock recipe a scenario can name. `watchdog` is `lease-with-token` whose client renews
 * by default; renewal itself is a client option any lease recipe can turn on.
 */
export const RECIPES = [
  'get-then-set',
  'setnx-then-expire',
  'lease-plain-del',
  'lease-with-token',
  'watchdog',
  'reentrant',
  'redlock',
  'lease-service',
  'db-lock',
  'fair-lock',
  'read-lock',
  'write-lock',
  'read-lock-two-step',
  'write-lock-two-step',
  'semaphore',
] as const;
export type RecipeName = (typeof RECIPES)[number];

/** Recipes that take the lock from a lock service (leaseService:, dbLock:) instead of Redis. */
export const SERVICE_RECIPES: readonly RecipeName[] = ['lease-service', 'db-lock'];

/** Recipes whose acquisition can also issue a fencing token (acquire + INCR in one script). */
export const FENCING_RECIPES: readonly RecipeName[] = ['lease-plain-del', 'lease-with-token', 'watchdog'];

/** The recipes that talk to one Redis node: all but Redlock's N masters and the lock services. */
export type OneNodeRecipeName = Exclude<RecipeName, 'redlock' | 'lease-service' | 'db-lock'>;

/** Builds the named recipe's protocol for one client. */
export function makeRecipe(name: RecipeName, ctx: RecipeContext, redlock: RedlockOptions): Recipe {
  switch (name) {
    case 'redlock':
      return redlockRecipe(ctx, redlock);
    case 'lease-service':
    case 'db-lock':
      // These talk to a service the world owns, so the world builds them (serviceRecipe.ts).
      throw new Error(`recipe '${name}' is built by the world, which owns its lock service`);
    default:
      return oneNodeRecipe(name, ctx);
  }
}

/**
 * A one-node recipe over any kind of node: the simulator's, or a real redis-server reached
 * through ioredis (the reality harness runs these same recipes: src/reality/coreRecipe.ts).
 */
export function oneNodeRecipe<Node>(name: OneNodeRecipeName, ctx: RecipeContextOn<Node>): Recipe {
  const c = { ...ctx, fencing: ctx.fencing && FENCING_RECIPES.includes(name) };
  switch (name) {
    case 'get-then-set':
    case 'setnx-then-expire':
      return twoStepRecipe(c, name);
    case 'lease-plain-del':
      return leaseRecipe(c, 'plain-del');
    case 'lease-with-token':
    case 'watchdog':
      return leaseRecipe(c, 'check-and-delete');
    case 'reentrant':
      return reentrantRecipe(c);
    case 'fair-lock':
      return fairRecipe(c);
    case 'read-lock':
      return readWriteRecipe(c, 'read', 'atomic');
    case 'write-lock':
      return readWriteRecipe(c, 'write', 'atomic');
    case 'read-lock-two-step':
      return readWriteRecipe(c, 'read', 'two-step');
    case 'write-lock-two-step':
      return readWriteRecipe(c, 'write', 'two-step');
    case 'semaphore':
      return semaphoreRecipe(c);
  }
}
