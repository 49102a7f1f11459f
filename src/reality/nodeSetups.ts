import type { Scenario } from '../scenario/schema/schema';
import type { NodeSetup } from './redisNodes';

/**
 * How each of the scenario's Redis nodes is started on real processes: a replica with its
 * lag on the link from its primary, and the redis-server options the simulated node has
 * (replica-priority, min-replicas-to-write and its max lag, an AOF and its fsync policy), every
 * duration scaled.
 */
export function nodeSetups(scenario: Scenario, scale: number): NodeSetup[] {
  return scenario.redis.nodes.map((n) => ({
    id: n.id,
    replicaOf: n.replicaOf ?? null,
    lagRealMs: Math.round(n.lag * scale),
    slots: scenario.redis.cluster ? (n.slots ?? []) : null,
    persistent: n.persistence !== 'none',
    options: [
      ...(n.persistence === 'none' ? [] : ['--appendonly', 'yes', '--appendfsync', n.persistence.slice('aof-'.length)]),
      ...(n.priority !== undefined ? ['--replica-priority', String(n.priority)] : []),
      ...(n.minReplicasToWrite > 0
        ? [
            '--min-replicas-to-write',
            String(n.minReplicasToWrite),
            // Redis counts this lag in whole seconds, as the simulator does (rounded up).
            '--min-replicas-max-lag',
            String(Math.max(1, Math.ceil((n.minReplicasMaxLag * scale) / 1000))),
          ]
        : []),
    ],
  }));
}

/** The lag (real ms) on what `primary` sends `replica`: the replica's own, on the link to its configured primary only. */
export function replicaLag(setups: readonly NodeSetup[]): (primary: string, replica: string) => number {
  return (primary, replica) => {
    const setup = setups.find((n) => n.id === replica);
    return setup?.replicaOf === primary ? setup.lagRealMs : 0;
  };
}
