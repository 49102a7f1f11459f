import type { Reply } from './reply';
import type { ScriptEngine } from './scriptEngine';
import type { SlotOwnership } from './clusterRouting';

// What a simulated Redis node is built with (server.ts is the node itself).

/** Hooks a replicated topology plugs in; a standalone node needs none. */
export interface ReplicationHooks {
  /** True while this node is a replica: writes answer READONLY, keys are not expired locally. */
  isReplica(): boolean;
  /** Replicas currently within min-replicas-max-lag (for min-replicas-to-write). */
  goodReplicas(): number;
  /**
   * Answers WAIT numreplicas timeout on a primary. A hook that must block the caller answers
   * `BLOCKED`: the server hands it back as the reply, and the caller answers the client later.
   */
  wait(numReplicas: number, timeoutMs: number): Reply;
}

/** The reply a blocking command (WAIT) gives when its real answer will come later. */
export const BLOCKED: Reply = Object.freeze({ type: 'status', value: '<blocked>' }) as Reply;

/** Construction options for one simulated Redis node. */
export interface RedisServerOptions {
  /** This node's clock, unix ms. */
  clock: () => number;
  /** Seeded [0,1) source, for active-expiry sampling. */
  random: () => number;
  /** Runs Lua bodies for EVAL/EVALSHA; without one, EVAL answers an error. */
  scripts?: ScriptEngine;
  /** DEBUG SLEEP and blocking WAIT advance virtual time through this. */
  sleep?: (ms: number) => void;
  replication?: ReplicationHooks;
  /** Memory model for maxmemory: used bytes, and an eviction pass run before each command. */
  memory?: { usedBytes(): number; performEvictions?(): void };
  /** Cluster mode: CLUSTER KEYSLOT answers instead of "cluster support disabled". */
  clusterEnabled?: boolean;
  /** Cluster slots this node serves; keys elsewhere answer MOVED (implies clusterEnabled). */
  cluster?: SlotOwnership;
  /**
   * Called once per client command with the write effects it had, in order, as commands a
   * replica or an AOF would apply (relative TTLs turned absolute, expirations as DEL). A script's
   * effects come as one batch, like Redis's MULTI/EXEC wrapping.
   */
  onPropagate?: (effects: string[][]) => void;
  /** Called for each key the maxmemory policy evicts (it is also propagated as DEL). */
  onEvict?: (key: string) => void;
}
