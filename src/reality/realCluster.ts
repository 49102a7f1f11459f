import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { CLUSTER_NODE_TIMEOUT_MS } from '../actors/server/clusterHealth';
import { commandKeys } from '../redis/clusterRouting';
import { keySlot } from '../redis/keySlot';
import type { Ask, Master } from './masterConnection';
import type { Scenario } from '../scenario/schema/schema';
import type { ClusterShard } from './protocol';
import { freePort } from './redisServer';

/**
 * What makes a redis-server a node of the scenario's cluster: cluster mode, its node table in a
 * file of its own (so a restart comes back as the same node with the same slots, and empty: there
 * is no data on disk), the bus on a port of its own, and the node timeout scaled like every
 * other duration (Redis's default 15 s at scale 1).
 */
export async function clusterOptions(
  dir: string,
  id: string,
  scale: number,
): Promise<{ args: string[]; busPort: number }> {
  const busPort = await freePort();
  const args = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(dir, `nodes-${id}.conf`),
    '--cluster-port',
    String(busPort),
    '--cluster-node-timeout',
    String(Math.max(1, Math.round(CLUSTER_NODE_TIMEOUT_MS * scale))),
  ];
  return { args, busPort };
}

/** A directory for the nodes' tables, removed by the function returned. */
export function clusterDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-cluster-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Forms the cluster as the scenario's slot map has it: each node takes its slot ranges
 * (CLUSTER ADDSLOTSRANGE), meets the first node, and the cluster is ready once every node says
 * `cluster_state:ok`, knows every other node and has waited out its first 2 s (a node that has
 * just started keeps its state `fail` that long: clusterHealth.ts).
 */
export async function formCluster(
  shards: readonly ClusterShard[],
  portOf: (id: string) => number,
  busPortOf: (id: string) => number,
): Promise<void> {
  const admins = shards.map((s) => {
    const redis = new Redis({ port: portOf(s.id), host: '127.0.0.1', lazyConnect: true });
    redis.on('error', () => undefined);
    return redis;
  });
  try {
    await Promise.all(
      shards.map((s, i) =>
        admins[i]!.call('CLUSTER', 'ADDSLOTSRANGE', ...s.slots.flatMap(([from, to]) => [String(from), String(to)])),
      ),
    );
    // The bus is on a port of its own, not Redis's default port + 10000: MEET names it.
    const first = shards[0]!.id;
    for (const admin of admins.slice(1))
      await admin.call('CLUSTER', 'MEET', '127.0.0.1', String(portOf(first)), String(busPortOf(first)));
    for (let tries = 0; tries < 300; tries++) {
      const infos = await Promise.all(admins.map((a) => a.call('CLUSTER', 'INFO') as Promise<string>));
      if (infos.every((i) => /cluster_state:ok/.test(i) && i.includes(`cluster_known_nodes:${shards.length}`))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the Redis Cluster of ${shards.map((s) => s.id).join(', ')} did not come up within 15 s`);
  } finally {
    for (const admin of admins) admin.disconnect();
  }
}

/** The scenario's cluster primaries and their slot ranges; null when it has no cluster. */
export function clusterShards(scenario: Scenario): ClusterShard[] | null {
  if (!scenario.redis.cluster) return null;
  return scenario.redis.nodes.flatMap((n) => (n.slots ? [{ id: n.id, slots: n.slots }] : []));
}

/**
 * A cluster-aware client's asking, as the simulator's ClusterAddress routes it: each command
 * goes to the node that serves its first key's slot by the configured map (a command without keys
 * to the node it was meant for). It never follows a MOVED: the map never changes.
 */
export function routedAsk(ask: Ask, shards: readonly ClusterShard[], masters: readonly Master[]): Ask {
  const owner = (slot: number) => {
    const shard = shards.find((s) => s.slots.some(([from, to]) => from <= slot && slot <= to));
    return shard && masters.find((m) => m.id === shard.id);
  };
  return (master, argv, timeoutRealMs) => {
    const key = commandKeys(argv)[0];
    return ask((key === undefined ? undefined : owner(keySlot(key))) ?? master, argv, timeoutRealMs);
  };
}
