import type { Persistence, RedisNodeOptions } from '../../actors/server/redisNode';
import type { TopologySpec } from '../../actors/server/replicationTopology';
import { didYouMean, type Report } from '../diagnostic';
import type { RedisInput } from './redisSchema';

/**
 * What a scenario's `redis:` section means once parsed (redisSchema.ts holds its schema): the
 * world's topology, and the cross-checks that need more than one field. Apart from the schema so
 * that the simulator, which builds worlds from parsed scenarios, does not bring the schema
 * library with it into its worker.
 */

type NodeInput = RedisInput['nodes'][number];

/** Is this action one of redisActions (its target is checked by checkRedis, not as a process)? */
export function isRedisAction(action: { do: string }): boolean {
  return action.do === 'failover' || action.do === 'power-loss';
}

function isReplica(n: NodeInput): boolean {
  return n.replicaOf !== undefined || n.role === 'replica';
}

/** The primary the sentinels watch: `monitor`, or the only primary with replicas. */
function monitored(redis: RedisInput): string | undefined {
  if (redis.sentinels?.monitor !== undefined) return redis.sentinels.monitor;
  const withReplicas = [...new Set(redis.nodes.filter((n) => n.replicaOf !== undefined).map((n) => n.replicaOf!))];
  return withReplicas.length === 1 ? withReplicas[0] : undefined;
}

/** Sentinel ids as the scenario names them (or s1..sN). */
export function sentinelIds(redis: RedisInput): string[] {
  const s = redis.sentinels;
  if (!s) return [];
  return s.ids ?? Array.from({ length: s.count }, (_, i) => `s${i + 1}`);
}

/** Resolves the redis section into the world's topology spec. */
export function topologySpec(redis: RedisInput): TopologySpec {
  const nodes: Record<string, Partial<RedisNodeOptions>> = {};
  for (const n of redis.nodes) {
    nodes[n.id] = {
      role: isReplica(n) ? 'replica' : 'primary',
      replicaOf: n.replicaOf ?? null,
      priority: n.priority,
      replicationLagMs: n.lag,
      persistence: (n.persistence === 'none' ? 'none' : n.persistence.slice(4)) as Persistence,
      minReplicasToWrite: n.minReplicasToWrite,
      minReplicasMaxLagS: Math.ceil(n.minReplicasMaxLag / 1000),
      maxmemoryBytes: n.maxmemory,
      maxmemoryPolicy: n.maxmemoryPolicy,
      slots: redis.cluster ? (n.slots ?? []) : null,
    };
  }
  const s = redis.sentinels;
  const ids = sentinelIds(redis);
  return {
    nodes,
    sentinels: s
      ? {
          name: s.name,
          ids,
          primary: monitored(redis)!,
          settings: {
            quorum: s.quorum ?? Math.floor(ids.length / 2) + 1,
            downAfterMs: s.downAfter,
            failoverTimeoutMs: s.failoverTimeout,
          },
        }
      : null,
    wait: redis.wait
      ? { replicas: redis.wait.replicas, timeoutMs: redis.wait.timeout, releaseRefused: redis.wait.releaseRefused }
      : null,
    cacheLoad: redis.cacheLoad
      ? {
          target: redis.cacheLoad.target,
          everyMs: redis.cacheLoad.every,
          valueSize: redis.cacheLoad.valueSize,
          ttlMs: redis.cacheLoad.ttl,
          startAtMs: redis.cacheLoad.startAt,
          writes: redis.cacheLoad.writes ?? null,
          reads: redis.cacheLoad.reads,
        }
      : null,
  };
}

function hintFor(word: string, candidates: readonly string[]): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean '${guess}'?` : `known ids: ${candidates.join(', ')}`;
}

/** Cross-checks the redis section and the redis-only steps; `report` places each problem. */
export function checkRedis(
  redis: RedisInput,
  script: readonly { do: string; target?: string }[],
  report: Report,
): void {
  const nodeIds = redis.nodes.map((n) => n.id);
  const byId = new Map(redis.nodes.map((n) => [n.id, n]));
  redis.nodes.forEach((n, i) => {
    if (n.role === 'replica' && n.replicaOf === undefined)
      report(
        ['redis', 'nodes', i, 'role'],
        `replica '${n.id}' does not say whom it replicates`,
        'add replicaOf: <primary id>',
      );
    if (n.role === 'primary' && n.replicaOf !== undefined)
      report(
        ['redis', 'nodes', i, 'replicaOf'],
        `'${n.id}' is a primary, so it cannot have replicaOf`,
        'remove role: primary, or remove replicaOf',
      );
    if (n.replicaOf === undefined) return;
    const primary = byId.get(n.replicaOf);
    if (n.replicaOf === n.id)
      report(['redis', 'nodes', i, 'replicaOf'], `'${n.id}' cannot replicate itself`, 'name its primary');
    else if (!primary)
      report(
        ['redis', 'nodes', i, 'replicaOf'],
        `unknown replicaOf target '${n.replicaOf}'`,
        hintFor(n.replicaOf, nodeIds),
      );
    else if (isReplica(primary))
      report(
        ['redis', 'nodes', i, 'replicaOf'],
        `'${n.replicaOf}' is itself a replica: chained replication is not simulated`,
        `replicate from '${primary.replicaOf ?? 'the primary'}' instead`,
      );
  });

  const s = redis.sentinels;
  const watched = monitored(redis);
  if (s) {
    const count = sentinelIds(redis).length;
    if (s.quorum !== undefined && s.quorum > count)
      report(
        ['redis', 'sentinels', 'quorum'],
        `a quorum of ${s.quorum} with only ${count} sentinels can never be reached`,
        `use at most ${count}`,
      );
    if (s.monitor !== undefined && !byId.has(s.monitor))
      report(['redis', 'sentinels', 'monitor'], `unknown Redis node '${s.monitor}'`, hintFor(s.monitor, nodeIds));
    else if (watched === undefined)
      report(
        ['redis', 'sentinels'],
        'Sentinel needs a primary with at least one replica to watch',
        'add a node with replicaOf: <primary>, or say which primary with monitor:',
      );
    else if (!redis.nodes.some((n) => n.replicaOf === watched))
      report(
        ['redis', 'sentinels', 'monitor'],
        `'${watched}' has no replica for Sentinel to promote`,
        `add a node with replicaOf: ${watched}`,
      );
  }
  const replicaCount = redis.nodes.filter(isReplica).length;
  if (redis.wait && redis.wait.replicas > replicaCount) {
    report(
      ['redis', 'wait', 'replicas'],
      `WAIT ${redis.wait.replicas} can never be met with ${replicaCount} replica(s): every write would fail`,
      `use at most ${replicaCount}`,
    );
  }

  const owners: Array<{ id: string; from: number; to: number }> = [];
  redis.nodes.forEach((n, i) => {
    if (n.slots && !redis.cluster)
      report(
        ['redis', 'nodes', i, 'slots'],
        'slots only mean something in a cluster',
        'add cluster: true to the redis section',
      );
    if (!redis.cluster) return;
    if (n.slots && isReplica(n))
      report(
        ['redis', 'nodes', i, 'slots'],
        `replica '${n.id}' serves its primary's slots, not its own`,
        'give slots to primaries only',
      );
    if (!n.slots && !isReplica(n))
      report(
        ['redis', 'nodes', i, 'id'],
        `cluster primary '${n.id}' serves no slots`,
        'add slots: 0-5460 (slots go from 0 to 16383)',
      );
    for (const [from, to] of n.slots ?? []) {
      const clash = owners.find((o) => o.from <= to && from <= o.to && o.id !== n.id);
      if (clash)
        report(
          ['redis', 'nodes', i, 'slots'],
          `slots ${from}-${to} overlap ${clash.id}'s ${clash.from}-${clash.to}`,
          'each slot has exactly one primary',
        );
      owners.push({ id: n.id, from, to });
    }
  });
  if (redis.cacheLoad && !byId.has(redis.cacheLoad.target)) {
    report(
      ['redis', 'cacheLoad', 'target'],
      `unknown Redis node '${redis.cacheLoad.target}'`,
      hintFor(redis.cacheLoad.target, nodeIds),
    );
  }

  const groups = s && watched !== undefined ? [s.name, watched] : [];
  const primariesWithReplicas = [...new Set(redis.nodes.flatMap((n) => (n.replicaOf ? [n.replicaOf] : [])))];
  script.forEach((step, i) => {
    if (step.target === undefined) return;
    if (step.do === 'power-loss' && !byId.has(step.target))
      report(['script', i, 'target'], `unknown Redis node '${step.target}'`, hintFor(step.target, nodeIds));
    if (step.do === 'failover') {
      const allowed = groups.length > 0 ? groups : primariesWithReplicas;
      if (!allowed.includes(step.target)) {
        const hint = allowed.length
          ? `fail over ${allowed.map((a) => `'${a}'`).join(' or ')}`
          : 'a failover needs a primary with a replica (replicaOf)';
        report(['script', i, 'target'], `cannot fail over '${step.target}'`, hint);
      }
    }
  });
}
