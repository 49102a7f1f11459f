import { z } from 'zod';
import type { Persistence, RedisNodeOptions } from '../actors/redisNode';
import type { TopologySpec } from '../actors/replicationTopology';
import { parseMemoryBytes, POLICIES } from '../redis/config';
import { didYouMean } from './diagnostic';
import { nonNegativeDurationMs, positiveDurationMs } from './duration';
import { actorId } from './ids';

/**
 * The `redis:` section of a scenario: nodes with their replication role and persistence,
 * the sentinels that watch them, and whether clients follow each write with WAIT. Imported by
 * schema.ts; cross-checks (ids that must exist, a Sentinel with nothing to promote) are in
 * `checkRedis`, called from parse.ts so every problem is placed at file:line:col.
 *
 * @example
 * redis:
 *   nodes:
 *     - { id: primary, persistence: aof-everysec }
 *     - { id: replica, replicaOf: primary, lag: 500ms }
 *   sentinels: { count: 3, quorum: 2, downAfter: 2s }
 *   wait: { replicas: 1, timeout: 100ms }
 */

const id = actorId;

/** How a node keeps its data across a restart: not at all, or an AOF with this appendfsync. */
export const PERSISTENCE = ['none', 'aof-always', 'aof-everysec', 'aof-no'] as const;

const redisNode = z.strictObject({
  id,
  label: z.string().optional(),
  /** primary (default) or replica (then replicaOf is required). */
  role: z.enum(['primary', 'replica']).optional(),
  /** The primary this node replicates from (makes it a replica). */
  replicaOf: id.optional(),
  /** replica-priority: lower wins a failover; 0 is never promoted. */
  priority: z.number().int().min(0).default(100),
  /** Extra delay before writes leave replicaOf for this replica (a slow link; not applied after a failover re-points it). */
  lag: nonNegativeDurationMs.default(0),
  persistence: z.enum(PERSISTENCE).default('none'),
  /** min-replicas-to-write: refuse writes (NOREPLICAS) with fewer good replicas than this. */
  minReplicasToWrite: z.number().int().min(0).default(0),
  /** min-replicas-max-lag: a replica is good while its last ACK is at most this old (whole seconds). */
  minReplicasMaxLag: nonNegativeDurationMs.default(10_000),
  /** maxmemory as Redis reads it (`1mb`, `100kb`, bytes); 0 is no limit. The model counts ~880 KB for an empty server. */
  maxmemory: z
    .union([z.number().int().min(0), z.string()])
    .transform((raw, ctx): number => {
      const bytes = typeof raw === 'number' ? raw : parseMemoryBytes(raw);
      if (bytes === null) {
        ctx.addIssue({ code: 'custom', message: `'${raw}' is not a memory size (write it like 2mb, 500kb or a number of bytes)` });
        return z.NEVER;
      }
      return bytes;
    })
    .default(0),
  maxmemoryPolicy: z.enum(POLICIES).default('noeviction'),
  /** Cluster slots this primary serves, like `0-5460` or `0-100, 200-300` (with cluster: true). */
  slots: z
    .string()
    .transform((text, ctx): Array<[number, number]> => {
      const ranges: Array<[number, number]> = [];
      for (const part of text.split(',')) {
        const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
        const [from, to] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [NaN, NaN];
        if (!(from <= to && to <= 16383)) {
          ctx.addIssue({ code: 'custom', message: `'${part.trim()}' is not a slot range (write it like 0-5460; slots go from 0 to 16383)` });
          return z.NEVER;
        }
        ranges.push([from, to]);
      }
      return ranges;
    })
    .optional(),
});

/** A cache workload on one node: SET cache:<n> <valueSize bytes> with a TTL, every `every`, to fill its memory. */
const cacheLoad = z.strictObject({
  target: id,
  every: positiveDurationMs.default(100),
  valueSize: z.number().int().positive().default(10_000),
  ttl: positiveDurationMs.default(3_600_000),
  startAt: nonNegativeDurationMs.default(0),
  /** Stop after this many writes (default: keep going). */
  writes: z.number().int().positive().optional(),
  /** Read the cache keys back as well (GET of a recent one per write), so LRU sees them in use. */
  reads: z.boolean().default(false),
});

const sentinels = z.strictObject({
  count: z.number().int().min(1).max(9).default(3),
  /** Sentinel ids (default s1, s2, ...); when given, they decide the count. */
  ids: z.array(id).min(1).optional(),
  /** Sentinels that must agree the primary is down (default: a majority). */
  quorum: z.number().int().min(1).optional(),
  downAfter: positiveDurationMs.default(30_000),
  failoverTimeout: positiveDurationMs.default(180_000),
  /** The monitored group's name (a failover step may target it). */
  name: id.default('mymaster'),
  /** The primary they watch (default: the one primary that has replicas). */
  monitor: id.optional(),
});

/** Every write a client sends is followed by `WAIT replicas timeout` (Redisson's habit). */
const wait = z.strictObject({
  replicas: z.number().int().min(0),
  timeout: nonNegativeDurationMs,
  /**
   * After a refusal (too few replicas confirmed), delete the key Redis did grant, with the
   * recipe's normal release, as Redisson does. Off, the refused key stays until its TTL.
   */
  releaseRefused: z.boolean().default(false),
});

export const redisSection = z.strictObject({
  nodes: z.array(redisNode).min(1),
  sentinels: sentinels.optional(),
  wait: wait.optional(),
  cacheLoad: cacheLoad.optional(),
  /** Cluster mode: primaries serve the slots they list; other keys answer MOVED, mixed slots CROSSSLOT. */
  cluster: z.boolean().default(false),
});

const at = nonNegativeDurationMs;

/** Steps only Redis topologies understand. */
export const redisSteps = [
  /** SENTINEL FAILOVER on a group (its name or its primary's id); without sentinels, a hand failover. */
  z.strictObject({ at, target: id, do: z.literal('failover') }),
  /** The machine loses power: unlike `crash`, unsynced AOF writes are gone. */
  z.strictObject({ at, target: id, do: z.literal('power-loss') }),
] as const;

export type RedisInput = z.output<typeof redisSection>;
type NodeInput = RedisInput['nodes'][number];

/** Is this step one of redisSteps (its target is checked by checkRedis, not as a process)? */
export function isRedisStep(step: { do: string }): boolean {
  return step.do === 'failover' || step.do === 'power-loss';
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
          settings: { quorum: s.quorum ?? Math.floor(ids.length / 2) + 1, downAfterMs: s.downAfter, failoverTimeoutMs: s.failoverTimeout },
        }
      : null,
    wait: redis.wait ? { replicas: redis.wait.replicas, timeoutMs: redis.wait.timeout, releaseRefused: redis.wait.releaseRefused } : null,
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

type Path = (string | number)[];
type Report = (path: Path, message: string, hint?: string) => void;

function hintFor(word: string, candidates: readonly string[]): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean '${guess}'?` : `known ids: ${candidates.join(', ')}`;
}

/** Cross-checks the redis section and the redis-only steps; `report` places each problem. */
export function checkRedis(redis: RedisInput, script: readonly { do: string; target?: string }[], report: Report): void {
  const nodeIds = redis.nodes.map((n) => n.id);
  const byId = new Map(redis.nodes.map((n) => [n.id, n]));
  redis.nodes.forEach((n, i) => {
    if (n.role === 'replica' && n.replicaOf === undefined) report(['redis', 'nodes', i, 'role'], `replica '${n.id}' does not say whom it replicates`, 'add replicaOf: <primary id>');
    if (n.role === 'primary' && n.replicaOf !== undefined) report(['redis', 'nodes', i, 'replicaOf'], `'${n.id}' is a primary, so it cannot have replicaOf`, 'remove role: primary, or remove replicaOf');
    if (n.replicaOf === undefined) return;
    const primary = byId.get(n.replicaOf);
    if (n.replicaOf === n.id) report(['redis', 'nodes', i, 'replicaOf'], `'${n.id}' cannot replicate itself`, 'name its primary');
    else if (!primary) report(['redis', 'nodes', i, 'replicaOf'], `unknown replicaOf target '${n.replicaOf}'`, hintFor(n.replicaOf, nodeIds));
    else if (isReplica(primary)) report(['redis', 'nodes', i, 'replicaOf'], `'${n.replicaOf}' is itself a replica: chained replication is not simulated`, `replicate from '${primary.replicaOf ?? 'the primary'}' instead`);
  });

  const s = redis.sentinels;
  const watched = monitored(redis);
  if (s) {
    const count = sentinelIds(redis).length;
    if (s.quorum !== undefined && s.quorum > count) report(['redis', 'sentinels', 'quorum'], `a quorum of ${s.quorum} with only ${count} sentinels can never be reached`, `use at most ${count}`);
    if (s.monitor !== undefined && !byId.has(s.monitor)) report(['redis', 'sentinels', 'monitor'], `unknown Redis node '${s.monitor}'`, hintFor(s.monitor, nodeIds));
    else if (watched === undefined) report(['redis', 'sentinels'], 'Sentinel needs a primary with at least one replica to watch', 'add a node with replicaOf: <primary>, or say which primary with monitor:');
    else if (!redis.nodes.some((n) => n.replicaOf === watched)) report(['redis', 'sentinels', 'monitor'], `'${watched}' has no replica for Sentinel to promote`, `add a node with replicaOf: ${watched}`);
  }
  const replicaCount = redis.nodes.filter(isReplica).length;
  if (redis.wait && redis.wait.replicas > replicaCount) {
    report(['redis', 'wait', 'replicas'], `WAIT ${redis.wait.replicas} can never be met with ${replicaCount} replica(s): every write would fail`, `use at most ${replicaCount}`);
  }

  const owners: Array<{ id: string; from: number; to: number }> = [];
  redis.nodes.forEach((n, i) => {
    if (n.slots && !redis.cluster) report(['redis', 'nodes', i, 'slots'], 'slots only mean something in a cluster', 'add cluster: true to the redis section');
    if (!redis.cluster) return;
    if (n.slots && isReplica(n)) report(['redis', 'nodes', i, 'slots'], `replica '${n.id}' serves its primary's slots, not its own`, 'give slots to primaries only');
    if (!n.slots && !isReplica(n)) report(['redis', 'nodes', i, 'id'], `cluster primary '${n.id}' serves no slots`, 'add slots: 0-5460 (slots go from 0 to 16383)');
    for (const [from, to] of n.slots ?? []) {
      const clash = owners.find((o) => o.from <= to && from <= o.to && o.id !== n.id);
      if (clash) report(['redis', 'nodes', i, 'slots'], `slots ${from}-${to} overlap ${clash.id}'s ${clash.from}-${clash.to}`, 'each slot has exactly one primary');
      owners.push({ id: n.id, from, to });
    }
  });
  if (redis.cacheLoad && !byId.has(redis.cacheLoad.target)) {
    report(['redis', 'cacheLoad', 'target'], `unknown Redis node '${redis.cacheLoad.target}'`, hintFor(redis.cacheLoad.target, nodeIds));
  }

  const groups = s && watched !== undefined ? [s.name, watched] : [];
  const primariesWithReplicas = [...new Set(redis.nodes.flatMap((n) => (n.replicaOf ? [n.replicaOf] : [])))];
  script.forEach((step, i) => {
    if (step.target === undefined) return;
    if (step.do === 'power-loss' && !byId.has(step.target)) report(['script', i, 'target'], `unknown Redis node '${step.target}'`, hintFor(step.target, nodeIds));
    if (step.do === 'failover') {
      const allowed = groups.length > 0 ? groups : primariesWithReplicas;
      if (!allowed.includes(step.target)) {
        const hint = allowed.length ? `fail over ${allowed.map((a) => `'${a}'`).join(' or ')}` : 'a failover needs a primary with a replica (replicaOf)';
        report(['script', i, 'target'], `cannot fail over '${step.target}'`, hint);
      }
    }
  });
}
