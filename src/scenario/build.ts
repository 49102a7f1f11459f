import type { ProcessAction, WorldSpec } from '../actors/world';
import type { Scenario, Step } from './schema';

/** How long a client waits before trying again after finding the lock taken. */
const RETRY_MS = 500;

/** Resolves a validated scenario into the plain spec a World is built from. */
export function worldSpec(scenario: Scenario, overrides: { fencing?: boolean } = {}): WorldSpec {
  const firstNode = scenario.redis.nodes[0]!.id;
  return {
    network: { latencyMsMin: scenario.network.latency.min, latencyMsMax: scenario.network.latency.max },
    redisNodes: scenario.redis.nodes.map((n) => ({ id: n.id, label: n.label ?? `Redis ${n.id}` })),
    clients: scenario.clients.map((c) => ({
      id: c.id,
      label: c.label ?? c.id,
      node: c.node ?? firstNode,
      key: c.key,
      ttlMs: c.ttl,
      workMs: c.work,
      startAtMs: c.startAt,
      retryMs: RETRY_MS,
      release: c.recipe === 'lease-plain-del' ? 'plain-del' : 'check-and-delete',
    })),
    resource: {
      id: scenario.resource.id,
      label: scenario.resource.label ?? scenario.resource.id,
      fencing: overrides.fencing ?? scenario.resource.fencing,
    },
  };
}

/** A scripted step as the world's action type. */
export function toAction(step: Step): ProcessAction {
  switch (step.do) {
    case 'pause':
      return step.for === undefined ? { do: 'pause', target: step.target } : { do: 'pause', target: step.target, forMs: step.for };
    case 'clock-jump':
      return { do: 'clock-jump', target: step.target, byMs: step.by };
    default:
      return { do: step.do, target: step.target };
  }
}
