import type { Process } from './process';

/**
 * What the world, the topology and the inspector need from any client: a lock client running
 * a recipe or a client following an explicit step list.
 */
export interface ClientActor {
  readonly id: string;
  readonly process: Process;
  /** The machine's current state, as the lane shows it. */
  readonly state: string;
  /** The lock keys it currently believes it holds. */
  readonly believedKeys: readonly string[];
}
