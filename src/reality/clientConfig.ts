import { randomBytes } from 'node:crypto';
import type { ClientSpec } from '../actors/client/clientSpec';
import type { WorldSpec } from '../actors/world';
import type { Scenario } from '../scenario/schema/schema';
import type { ClientConfig } from './protocol';

/** Where a real client finds what it talks to, as the harness started it. */
export interface ClientWiring {
  scale: number;
  /**
   * The port client `from` reaches `to` (a Redis node or the resource) at: its own, or the port of
   * the link proxy that stages the scenario's network between them (realLinks.ts); `resp` when
   * the line carries Redis's protocol.
   */
  port(from: string, to: string, resp: boolean): Promise<number>;
  /** The Sentinel group clients of its primary ask, if the scenario has one. */
  sentinel: { name: string; primary: string; ports: number[]; nodes: Record<number, string> } | null;
}

/** What a real client process runs: the simulator's client spec `c`, every duration scaled to real ms. */
export async function clientConfig(
  scenario: Scenario,
  spec: WorldSpec,
  c: ClientSpec,
  wiring: ClientWiring,
): Promise<ClientConfig> {
  const real = (scenarioMs: number) => Math.round(scenarioMs * wiring.scale);
  const { sentinel } = wiring;
  // As the simulator's topology has it: a client of the monitored primary (or of the group's
  // name) follows failovers through Sentinel; a client of any other node talks to that node.
  const followsSentinel = sentinel !== null && (c.nodes[0] === sentinel.primary || c.nodes[0] === sentinel.name);
  const resourcePort = await wiring.port(c.id, spec.resource.id, false);
  return {
    id: c.id,
    recipe: c.recipe as ClientConfig['recipe'],
    key: c.keys[0]!,
    value: `${c.id}-${randomBytes(4).toString('hex')}`,
    masters: await Promise.all(
      c.nodes.map(async (node) => {
        const id = followsSentinel ? sentinel.primary : node;
        return { id, port: await wiring.port(c.id, id, true) };
      }),
    ),
    ...(followsSentinel ? { sentinel: { name: sentinel.name, ports: sentinel.ports, nodes: sentinel.nodes } } : {}),
    redlock: { ...c.redlock, instanceTimeoutMs: Math.max(1, real(c.redlock.instanceTimeoutMs)) },
    resourceId: spec.resource.id,
    resourceUrl: `http://127.0.0.1:${resourcePort}/write`,
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
