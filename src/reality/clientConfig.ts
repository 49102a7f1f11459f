import { randomBytes } from 'node:crypto';
import type { ClientSpec } from '../actors/client/clientSpec';
import type { WorldSpec } from '../actors/world';
import type { Scenario } from '../scenario/schema/schema';
import type { ClientConfig } from './protocol';

/** Where a real client finds what it talks to, as the harness started it. */
export interface ClientWiring {
  scale: number;
  /** The port the client reaches a Redis node at (a delaying proxy's, with a latency). */
  clientPort(node: string): number;
  /** The port of a node cut off from clients by a partition in place from the start (blackHole.ts). */
  blackHolePort: number;
  resourceUrl: string;
  /** The Sentinel group clients of its primary ask, if the scenario has one. */
  sentinel: { name: string; primary: string; ports: number[]; nodes: Record<number, string> } | null;
}

/** What a real client process runs: the simulator's client spec `c`, every duration scaled to real ms. */
export function clientConfig(scenario: Scenario, spec: WorldSpec, c: ClientSpec, wiring: ClientWiring): ClientConfig {
  const real = (scenarioMs: number) => Math.round(scenarioMs * wiring.scale);
  const { sentinel } = wiring;
  // As the simulator's topology has it: a client of the monitored primary (or of the group's
  // name) follows failovers through Sentinel; a client of any other node talks to that node.
  const followsSentinel = sentinel !== null && (c.nodes[0] === sentinel.primary || c.nodes[0] === sentinel.name);
  return {
    id: c.id,
    recipe: c.recipe as ClientConfig['recipe'],
    key: c.keys[0]!,
    value: `${c.id}-${randomBytes(4).toString('hex')}`,
    masters: c.nodes.map((node) => {
      const id = followsSentinel ? sentinel.primary : node;
      return { id, port: cutOff(scenario, c.id, id) ? wiring.blackHolePort : wiring.clientPort(id) };
    }),
    ...(followsSentinel ? { sentinel: { name: sentinel.name, ports: sentinel.ports, nodes: sentinel.nodes } } : {}),
    redlock: { ...c.redlock, instanceTimeoutMs: Math.max(1, real(c.redlock.instanceTimeoutMs)) },
    resourceId: spec.resource.id,
    resourceUrl: wiring.resourceUrl,
    ttlScenarioMs: c.ttlMs,
    ttlRealMs: Math.max(1, real(c.ttlMs)),
    workRealMs: c.workMs === null ? null : real(c.workMs),
    startAtRealMs: real(c.startAtMs),
    gapRealMs: real(c.gapMs),
    timeoutRealMs: c.timeoutMs === null ? null : real(c.timeoutMs),
    renewEveryRealMs: c.renewEveryMs === null ? null : real(c.renewEveryMs),
    onRenewFail: c.onRenewFail,
    jobs: c.jobs,
    fencing:
      (spec.resource.fencing && ['lease-plain-del', 'lease-with-token', 'watchdog'].includes(c.recipe)) || c.tokens,
    onUnavailable: c.onUnavailable,
    retry: c.retry,
    seed: scenario.seed,
    startAtScenarioMs: c.startAtMs,
    scale: wiring.scale,
  };
}

/** True when a partition in place from the start puts `a` and `b` in different groups (Partitions.split's rule). */
function cutOff(scenario: Scenario, a: string, b: string): boolean {
  return scenario.network.partitions.some(({ groups }) => {
    const ga = groups.findIndex((g) => g.includes(a));
    const gb = groups.findIndex((g) => g.includes(b));
    return ga >= 0 && gb >= 0 && ga !== gb;
  });
}
