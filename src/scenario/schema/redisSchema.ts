import { z } from 'zod';
import { parseMemoryBytes, POLICIES } from '../../redis/config';
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
  id: id.meta({
    description: "The node's name on its lane; clients' `node:` and script steps' `target:` use it.",
    examples: ['r1'],
  }),
  label: z
    .string()
    .optional()
    .meta({ description: 'The name on its lane, if not the id.', examples: ['Primary'] }),
  /** primary (default) or replica (then replicaOf is required). */
  role: z
    .enum(['primary', 'replica'])
    .optional()
    .meta({ description: '`primary` (the default) or `replica`, which needs `replicaOf`.', examples: ['replica'] }),
  /** The primary this node replicates from (makes it a replica). */
  replicaOf: id.optional().meta({
    description: 'The id of the primary this node copies; giving it makes the node a replica.',
    examples: ['r1'],
  }),
  /** replica-priority: lower wins a failover; 0 is never promoted. */
  priority: z
    .number()
    .int()
    .min(0)
    .default(100)
    .meta({
      description: 'replica-priority: the lowest wins a failover, and 0 is never promoted; left out, 100.',
      examples: [10],
    }),
  /** Extra delay before writes leave replicaOf for this replica (a slow link; not applied after a failover re-points it). */
  lag: nonNegativeDurationMs.default(0).meta({
    description: "Extra delay before the primary's writes reach this replica; left out, none beyond the network's.",
    examples: ['500ms'],
  }),
  persistence: z
    .enum(PERSISTENCE)
    .default('none')
    .meta({
      description:
        'How the node keeps data across a restart: `none` (forgets everything) or an AOF fsynced `always`, `everysec` or by the OS (`aof-no`); left out, none.',
      examples: ['aof-everysec'],
    }),
  /** min-replicas-to-write: refuse writes (NOREPLICAS) with fewer good replicas than this. */
  minReplicasToWrite: z
    .number()
    .int()
    .min(0)
    .default(0)
    .meta({
      description:
        'min-replicas-to-write: refuse writes (NOREPLICAS) while fewer replicas than this are in good standing; left out, 0 (never refuse).',
      examples: [1],
    }),
  /** min-replicas-max-lag: a replica is good while its last ACK is at most this old (whole seconds). */
  minReplicasMaxLag: nonNegativeDurationMs.default(10_000).meta({
    description:
      'min-replicas-max-lag: a replica is in good standing while its last acknowledgement is at most this old; left out, 10 s.',
    examples: ['10s'],
  }),
  /** maxmemory as Redis reads it (`1mb`, `100kb`, bytes); 0 is no limit. The model counts ~880 KB for an empty server. */
  maxmemory: z
    .union([z.number().int().min(0), z.string()])
    .transform((raw, ctx): number => {
      const bytes = typeof raw === 'number' ? raw : parseMemoryBytes(raw);
      if (bytes === null) {
        ctx.addIssue({
          code: 'custom',
          message: `'${raw}' is not a memory size (write it like 2mb, 500kb or a number of bytes)`,
        });
        return z.NEVER;
      }
      return bytes;
    })
    .default(0)
    .meta({
      description:
        'maxmemory as Redis reads it (`1mb`, `100kb` or bytes); 0, the default, is no limit. An empty server counts about 880 KB.',
      examples: ['2mb'],
    }),
  maxmemoryPolicy: z
    .enum(POLICIES)
    .default('noeviction')
    .meta({
      description:
        'What the node does when full: `noeviction` refuses writes, the others delete keys (lock keys included); left out, noeviction.',
      examples: ['allkeys-lru'],
    }),
  /** Cluster slots this primary serves, like `0-5460` or `0-100, 200-300` (with cluster: true). */
  slots: z
    .string()
    .transform((text, ctx): Array<[number, number]> => {
      const ranges: Array<[number, number]> = [];
      for (const part of text.split(',')) {
        const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
        const [from, to] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [NaN, NaN];
        if (!(from <= to && to <= 16383)) {
          ctx.addIssue({
            code: 'custom',
            message: `'${part.trim()}' is not a slot range (write it like 0-5460; slots go from 0 to 16383)`,
          });
          return z.NEVER;
        }
        ranges.push([from, to]);
      }
      return ranges;
    })
    .optional()
    .meta({
      description: 'With `cluster: true`: the hash slots this primary serves, as ranges from 0 to 16383.',
      examples: ['0-5460'],
    }),
});

/** A cache workload on one node: SET cache:<n> <valueSize bytes> with a TTL, every `every`, to fill its memory. */
const cacheLoad = z.strictObject({
  target: id.meta({ description: 'The node the cache writes go to.', examples: ['r1'] }),
  every: positiveDurationMs
    .default(100)
    .meta({ description: 'How often a cache key is written; left out, every 100 ms.', examples: ['50ms'] }),
  valueSize: z
    .number()
    .int()
    .positive()
    .default(10_000)
    .meta({ description: 'The size of each cached value in bytes; left out, 10000.', examples: [20000] }),
  ttl: positiveDurationMs
    .default(3_600_000)
    .meta({ description: 'The TTL of each cache key; left out, an hour.', examples: ['10m'] }),
  startAt: nonNegativeDurationMs
    .default(0)
    .meta({ description: 'When the cache writes begin; left out, at the start.', examples: ['1s'] }),
  /** Stop after this many writes (default: keep going). */
  writes: z
    .number()
    .int()
    .positive()
    .optional()
    .meta({ description: 'Stop after this many writes; left out, keep writing until the run ends.', examples: [200] }),
  /** Read the cache keys back as well (GET of a recent one per write), so LRU sees them in use. */
  reads: z
    .boolean()
    .default(false)
    .meta({
      description: 'true: read a recent cache key after each write, so an LRU policy sees the cache in use.',
      examples: [true],
    }),
});

const sentinels = z.strictObject({
  count: z
    .number()
    .int()
    .min(1)
    .max(9)
    .default(3)
    .meta({ description: 'How many Sentinels watch the primary, 1 to 9; left out, 3.', examples: [3] }),
  /** Sentinel ids (default s1, s2, ...); when given, they decide the count. */
  ids: z
    .array(id)
    .min(1)
    .optional()
    .meta({
      description: "The Sentinels' ids; given, they decide the count. Left out, s1, s2, \u2026",
      examples: [['s1', 's2', 's3']],
    }),
  /** Sentinels that must agree the primary is down (default: a majority). */
  quorum: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'How many Sentinels must agree the primary is down; left out, a majority.', examples: [2] }),
  downAfter: positiveDurationMs.default(30_000).meta({
    description:
      'down-after-milliseconds: how long the primary must be silent before a Sentinel thinks it down; left out, 30 s.',
    examples: ['5s'],
  }),
  failoverTimeout: positiveDurationMs.default(180_000).meta({
    description: 'failover-timeout: how long a failover may take before another is tried; left out, 3 minutes.',
    examples: ['60s'],
  }),
  /** The monitored group's name (a failover step may target it). */
  name: id.default('mymaster').meta({
    description: "The monitored group's name, which a failover step may target; left out, mymaster.",
    examples: ['mymaster'],
  }),
  /** The primary they watch (default: the one primary that has replicas). */
  monitor: id.optional().meta({
    description: 'The primary the Sentinels watch; left out, the one primary that has replicas.',
    examples: ['r1'],
  }),
});

/** Every write a client sends is followed by `WAIT replicas timeout` (Redisson's habit). */
const wait = z.strictObject({
  replicas: z
    .number()
    .int()
    .min(0)
    .meta({ description: 'How many replicas must confirm each write.', examples: [1] }),
  timeout: nonNegativeDurationMs.meta({
    description: 'How long WAIT blocks for them before answering with the count it has.',
    examples: ['100ms'],
  }),
  /**
   * After a refusal (too few replicas confirmed), delete the key Redis did grant, with the
   * recipe's normal release, as Redisson does. Off, the refused key stays until its TTL.
   */
  releaseRefused: z
    .boolean()
    .default(false)
    .meta({
      description:
        'true: after a refusal (too few confirmations) the client releases the key Redis did grant, as Redisson does; left out, the key stays until its TTL.',
      examples: [true],
    }),
});

export const redisSection = z.strictObject({
  nodes: z
    .array(redisNode)
    .min(1)
    .meta({
      description: 'The Redis servers, each a lane: primaries, and replicas that copy one.',
      examples: [[{ id: 'r1' }, { id: 'r2', replicaOf: 'r1' }]],
    }),
  sentinels: sentinels.optional().meta({
    description:
      'Sentinels that watch the primary and promote a replica when it goes quiet; left out, failover only by hand.',
    examples: [{ count: 3, downAfter: '5s' }],
  }),
  wait: wait.optional().meta({
    description:
      'Every write a client sends is followed by `WAIT replicas timeout`; left out, clients never wait for replicas.',
    examples: [{ replicas: 1, timeout: '100ms' }],
  }),
  cacheLoad: cacheLoad.optional().meta({
    description:
      "A cache workload writing keys to one node to fill its memory; left out, the locks are the node's only keys.",
    examples: [{ target: 'r1', every: '50ms', valueSize: 20000 }],
  }),
  /** Cluster mode: primaries serve the slots they list; other keys answer MOVED, mixed slots CROSSSLOT. */
  cluster: z
    .boolean()
    .default(false)
    .meta({
      description:
        'true: Redis Cluster, where each primary serves the `slots` it lists, other keys answer MOVED and keys of mixed slots CROSSSLOT; a restarted primary refuses key commands for 2 s, and one down past the 15 s node timeout takes the whole cluster down (CLUSTERDOWN).',
      examples: [true],
    }),
});

const at = nonNegativeDurationMs.meta({
  description: "When it happens, in the run's virtual time from the start.",
  examples: ['3s'],
});
const node = id.meta({
  description: "The Redis node it happens to (for a failover, also a Sentinel group's name).",
  examples: ['r1'],
});

/** Script actions only Redis topologies understand. */
export const redisActions = [
  /** SENTINEL FAILOVER on a group (its name or its primary's id); without sentinels, a hand failover. */
  z.strictObject({
    at,
    target: node,
    do: z
      .literal('failover')
      .meta({ description: "failover: a replica is promoted in the primary's place.", examples: ['failover'] }),
  }),
  /** The machine loses power: unlike `crash`, unsynced AOF writes are gone. */
  z.strictObject({
    at,
    target: node,
    do: z.literal('power-loss').meta({
      description: 'power-loss: the node stops, and its writes not yet synced to disk are gone.',
      examples: ['power-loss'],
    }),
  }),
] as const;

export type RedisInput = z.output<typeof redisSection>;
