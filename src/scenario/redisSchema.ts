import { z } from 'zod';
import { parseMemoryBytes, POLICIES } from '../redis/config';
import { nonNegativeDurationMs, positiveDurationMs } from './duration';
import { actorId } from './ids';

/**
 * The `redis:` section of a scenario: nodes with their replication role and persistence,
 * the sentinels that watch them, and whether clients follow each write with WAIT. Imported by
 * schema.ts. What it means (the world's topology) and its cross-checks (ids that must exist, a
 * Sentinel with nothing to promote) are in redisTopology.ts, whose `checkRedis` parse.ts calls
 * so that every problem is placed at file:line:col.
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

const at = nonNegativeDurationMs.meta({ description: "When it happens, in the run's virtual time from the start.", examples: ['3s'] });
const node = id.meta({ description: "The Redis node it happens to (for a failover, also a Sentinel group's name).", examples: ['r1'] });

/** Script actions only Redis topologies understand. */
export const redisActions = [
  /** SENTINEL FAILOVER on a group (its name or its primary's id); without sentinels, a hand failover. */
  z.strictObject({ at, target: node, do: z.literal('failover').meta({ description: "failover: a replica is promoted in the primary's place.", examples: ['failover'] }) }),
  /** The machine loses power: unlike `crash`, unsynced AOF writes are gone. */
  z.strictObject({ at, target: node, do: z.literal('power-loss').meta({ description: "power-loss: the node stops, and its writes not yet synced to disk are gone.", examples: ['power-loss'] }) }),
] as const;

export type RedisInput = z.output<typeof redisSection>;
