import type { WorldSpec } from '../actors/world';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEventMap } from '../sim/traceEvents';

/** A node as the harness starts it: a lone primary, or a replica of another node. */
export interface NodeSetup {
  id: string;
  /** The node it replicates, or null for a primary. */
  replicaOf: string | null;
  /** The delay on the link from its primary, in real ms (serverNetwork.ts); 0: none. */
  lagRealMs: number;
  /** Further redis-server options (`--replica-priority 10`, `--min-replicas-to-write 1`, …). */
  options: string[];
  /** The slot ranges a cluster primary serves; null outside a cluster. */
  slots: [number, number][] | null;
  /** It keeps an AOF (its options say how): in a directory of its own, which a restart reloads. */
  persistent: boolean;
}

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

/** Each node's configured role and each sentinel's first state, as a simulated run starts with them. */
export function topologyAtStart(
  scenario: Scenario,
  spec: WorldSpec,
): (
  | { kind: 'redis.role'; actor: string; data: TraceEventMap['redis.role'] }
  | { kind: 'actor.state'; actor: string; data: TraceEventMap['actor.state'] }
)[] {
  const replicated = scenario.redis.nodes.some((n) => n.replicaOf !== undefined);
  return [
    ...(replicated ? scenario.redis.nodes : []).map((n) => {
      const of = n.replicaOf ?? null;
      const role = of === null ? ('primary' as const) : ('replica' as const);
      return { kind: 'redis.role' as const, actor: n.id, data: { role, of, reason: 'configured' } };
    }),
    ...(spec.topology?.sentinels?.ids ?? []).map((id) => ({
      kind: 'actor.state' as const,
      actor: id,
      data: { state: 'monitoring' },
    })),
  ];
}
