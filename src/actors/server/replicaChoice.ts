import type { NodeInfo, RedisServerNode } from './redisNode';

/**
 * Redis Sentinel's choice of the replica to promote: skip replicas that are down (`sdown`),
 * not synced, or priority 0; then the lowest priority wins, then the highest replication
 * offset, then the smallest run id. `info` is what each node last answered to INFO.
 */
export function chooseReplica(
  nodes: readonly RedisServerNode[],
  info: ReadonlyMap<string, NodeInfo>,
  primaryId: string,
  sdown: ReadonlySet<string>,
): RedisServerNode | undefined {
  const candidates = nodes.filter((node) => {
    const seen = info.get(node.id);
    return (
      node.id !== primaryId &&
      seen !== undefined &&
      seen.role === 'replica' &&
      seen.linkUp &&
      seen.priority > 0 &&
      !sdown.has(node.id)
    );
  });
  const key = (node: RedisServerNode) => info.get(node.id)!;
  candidates.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x.priority !== y.priority) return x.priority - y.priority;
    if (x.offset !== y.offset) return y.offset - x.offset;
    return x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0;
  });
  return candidates[0];
}
