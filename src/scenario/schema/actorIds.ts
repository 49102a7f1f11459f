import type { Path } from '../diagnostic';
import { sentinelIds } from './redisTopology';
import type { Scenario } from './schema';
import { serviceIds } from './services';

/** Every actor id of a scenario: Redis nodes, clients, the resource, sentinels and services. */
export function actorIds(scenario: Scenario): string[] {
  return actorPaths(scenario).map(([actorId]) => actorId);
}

/** Each actor id with the place in the scenario that declares it, for diagnostics. */
export function actorPaths(scenario: Scenario): [string, Path][] {
  return [
    ...scenario.redis.nodes.map((n, i): [string, Path] => [n.id, ['redis', 'nodes', i, 'id']]),
    ...scenario.clients.map((c, i): [string, Path] => [c.id, ['clients', i, 'id']]),
    [scenario.resource.id, ['resource', 'id']],
    ...sentinelIds(scenario.redis).map((s): [string, Path] => [s, ['redis', 'sentinels']]),
    ...serviceIds(scenario),
  ];
}
