import type { Sim } from '../../sim/sim';
import type { RedisServerNode } from './redisNode';

/**
 * How long a cluster master that has just started keeps its cluster state `fail` (Redis's
 * CLUSTER_WRITABLE_DELAY, cluster.c): a rebooted master must not take writes before the cluster
 * has had a chance to tell it what changed. Measured on redis-server 7.0.15: a master killed and
 * started again answered `CLUSTERDOWN The cluster is down` to every key command for 2.2 s.
 */
export const CLUSTER_WRITABLE_DELAY_MS = 2000;

/** `cluster-node-timeout`'s default: how long a master may not answer before it is suspected. */
export const CLUSTER_NODE_TIMEOUT_MS = 15_000;

/**
 * From a suspicion to the cluster's verdict: the masters' failure reports travel in their
 * heartbeats until a majority agree, and each then marks the node failed. Measured on
 * redis-server 7.0.15 with a 2 s node timeout: the others turned to `cluster_state:fail` 3.0 to
 * 3.2 s after a master was killed, about one second past the timeout. The simulator takes that
 * second as fixed; a real cluster's varies with its heartbeats.
 */
export const CLUSTER_FAIL_REPORT_MS = 1000;

/** How long a master is down before the others mark it failed. */
const FAILED_AFTER_MS = CLUSTER_NODE_TIMEOUT_MS + CLUSTER_FAIL_REPORT_MS;

/** A failed master is cleared only after twice the node timeout, unless it comes back (CLUSTER_FAIL_UNDO_TIME_MULT). */
const FAIL_UNDO_MULT = 2;

interface NodeLife {
  /** When it last started again (null: up since the run began, the cluster formed). */
  startedAt: number | null;
  /** When it crashed, while it is down. */
  downSince: number | null;
  /** When the others marked it failed, kept after it comes back until they clear it. */
  failedAt: number | null;
}

/**
 * Each cluster node's `cluster_state` as Redis keeps it, for the key commands it refuses with
 * `CLUSTERDOWN The cluster is down` (clusterRouting.ts). Two rules, both Redis's defaults:
 *
 * - a master that started again is `fail` for its first CLUSTER_WRITABLE_DELAY_MS;
 * - with `cluster-require-full-coverage yes`, once a master serving slots has been down for the
 *   node timeout and the failure reports (CLUSTER_FAIL_REPORT_MS), every other node is `fail`
 *   too (no replica can take its slots over here), until it is back and the others clear it:
 *   at once when it was marked failed more than twice the node timeout ago, else at that moment.
 *
 * Only crashes are seen: a partition between nodes (their cluster bus) is not modelled.
 */
export class ClusterHealth {
  private readonly lives = new Map<string, NodeLife>();

  constructor(
    private readonly sim: Sim,
    nodes: readonly RedisServerNode[],
  ) {
    for (const node of nodes) {
      const life: NodeLife = { startedAt: null, downSince: null, failedAt: null };
      this.lives.set(node.id, life);
      if (!node.options.slots?.length) continue;
      node.process.onCrash(() => (life.downSince = this.sim.now));
      node.process.onRestart(() => {
        const now = this.sim.now;
        if (life.downSince !== null && now - life.downSince >= FAILED_AFTER_MS)
          life.failedAt = life.downSince + FAILED_AFTER_MS;
        life.downSince = null;
        life.startedAt = now;
      });
    }
  }

  /** Whether node `self` says its cluster is ok, now. */
  ok(self: string): boolean {
    const now = this.sim.now;
    const mine = this.lives.get(self);
    if (mine?.startedAt != null && now - mine.startedAt < CLUSTER_WRITABLE_DELAY_MS) return false;
    for (const [id, life] of this.lives) {
      if (id === self) continue;
      if (life.downSince !== null) {
        if (now - life.downSince >= FAILED_AFTER_MS) return false;
      } else if (life.failedAt !== null && now < life.failedAt + FAIL_UNDO_MULT * CLUSTER_NODE_TIMEOUT_MS) return false;
    }
    return true;
  }
}
