import type { Network } from '../../net/network';
import type { Prng } from '../../sim/prng';
import type { Recipe, RecipeContext } from '../recipes/recipe';
import type { RedisNode } from '../server/redisNode';
import type { Resource } from '../resources/resource';

// What the world connects each kind of client to (world.ts builds these); everything else a
// client knows comes from its ClientSpec.

/** What the world connects a lock client to; everything else comes from its ClientSpec. */
export interface LockClientWiring {
  network: Network;
  /** The addresses of the nodes it talks to (one, or every master for Redlock). */
  nodes: readonly RedisNode[];
  resource: Resource;
  /** Its random lock value. */
  value: string;
  /** Ask for fencing tokens (the resource checks them, or the client wants them anyway). */
  fencing: boolean;
  /** Builds the recipe's protocol for this client. */
  recipe: (ctx: RecipeContext) => Recipe;
  /** This client's own random stream (retry jitter). */
  random: Prng;
}

/** What the world connects a step client to; everything else comes from its ClientSpec. */
export interface StepClientWiring {
  network: Network;
  /** Where a Redis step goes when it names no node. */
  defaultNode: RedisNode;
  /** Every Redis node a step may name. */
  nodeById: (id: string) => RedisNode | undefined;
  resource: Resource;
  /** Its random lock value. */
  value: string;
  /** This client's own random stream (retry jitter). */
  random: Prng;
}
