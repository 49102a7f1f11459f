import { Network, type NetworkOptions } from '../net/network';
import type { ScriptEngine } from '../redis/scriptEngine';
import type { Sim } from '../sim/sim';
import type { ActorInfo } from '../sim/traceEvents';
import { LockClient, type ReleaseStyle } from './lockClient';
import type { Process } from './process';
import { RedisNode } from './redisNode';
import { Store } from './resources/store';

/** Everything needed to build a world, already resolved (durations in ms, ids checked). */
export interface WorldSpec {
  network: NetworkOptions;
  redisNodes: { id: string; label: string }[];
  clients: {
    id: string;
    label: string;
    node: string;
    key: string;
    ttlMs: number;
    workMs: number;
    startAtMs: number;
    retryMs: number;
    release: ReleaseStyle;
  }[];
  resource: { id: string; label: string; fencing: boolean };
}

/** The lanes of the timeline, in display order: clients, then Redis, then the resource. */
export function actorInfos(spec: WorldSpec): ActorInfo[] {
  return [
    ...spec.clients.map((c): ActorInfo => ({ id: c.id, label: c.label, role: 'client' })),
    ...spec.redisNodes.map((n): ActorInfo => ({ id: n.id, label: n.label, role: 'redis' })),
    { id: spec.resource.id, label: spec.resource.label, role: 'resource' },
  ];
}

/** Something done to a process: by the scenario's script or by the learner. */
export type ProcessAction =
  | { do: 'pause'; target: string; forMs?: number }
  | { do: 'resume'; target: string }
  | { do: 'crash'; target: string }
  | { do: 'restart'; target: string }
  | { do: 'clock-jump'; target: string; byMs: number };

/**
 * The simulated coffee shop: Redis nodes, lock clients and the resource they protect, wired
 * through one network and driven by one kernel.
 */
export class World {
  readonly network: Network;
  readonly nodes: RedisNode[];
  readonly clients: LockClient[];
  readonly resource: Store;
  readonly actors: ActorInfo[];

  constructor(
    readonly sim: Sim,
    spec: WorldSpec,
    scripts: ScriptEngine | undefined,
  ) {
    this.network = new Network(sim, spec.network);
    const lockKeys = [...new Set(spec.clients.map((c) => c.key))];
    const owners = new Map<string, string>();
    const ownerOf = (value: string) => owners.get(value) ?? 'someone';
    this.nodes = spec.redisNodes.map((n) => new RedisNode(sim, n.id, lockKeys, ownerOf, scripts));
    this.resource = new Store(sim, spec.resource.id, spec.resource.fencing);
    this.actors = actorInfos(spec);
    this.clients = spec.clients.map((c) => {
      // Each client's lock value comes from its own random stream (see Prng.fork).
      const value = `${c.id}-${sim.random.fork(`client:${c.id}`).hex(4)}`;
      owners.set(value, c.id);
      return new LockClient(sim, {
        id: c.id,
        release: c.release,
        network: this.network,
        redis: this.nodes.find((n) => n.id === c.node)!,
        resource: this.resource,
        input: {
          key: c.key,
          ttlMs: c.ttlMs,
          workMs: c.workMs,
          startAtMs: c.startAtMs,
          retryMs: c.retryMs,
          value,
          fencing: spec.resource.fencing,
        },
      });
    });
  }

  process(id: string): Process | undefined {
    const owners = [...this.clients, ...this.nodes, this.resource];
    return owners.find((o) => o.process.id === id)?.process;
  }

  /** Applies an action now; returns false when its target does not exist. */
  apply(action: ProcessAction): boolean {
    const target = this.process(action.target);
    if (!target) return false;
    switch (action.do) {
      case 'pause':
        target.pause(action.forMs ?? null);
        break;
      case 'resume':
        target.resume();
        break;
      case 'crash':
        target.crash();
        break;
      case 'restart':
        target.restart();
        break;
      case 'clock-jump':
        target.jumpClock(action.byMs);
        break;
    }
    return true;
  }
}
