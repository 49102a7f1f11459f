import { leaseRecipe } from './lease';
import type { Recipe, RecipeContext } from './recipe';
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

/** Builds the named recipe's protocol for one client. */
export function makeRecipe(name: RecipeName, ctx: RecipeContext, redlock: RedlockOptions): Recipe {
  const fencing = ctx.fencing && FENCING_RECIPES.includes(name);
  const c = { ...ctx, fencing };
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
    case 'redlock':
      return redlockRecipe(c, redlock);
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
    case 'lease-service':
    case 'db-lock':
      // These talk to a service the world owns, so the world builds them (serviceRecipe.ts).
      throw new Error(`recipe '${name}' is built by the world, which owns its lock service`);
  }
}
