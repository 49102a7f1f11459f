import { randomBytes } from 'node:crypto';
import type { ClientSpec } from '../actors/client/clientSpec';
import { buildResource } from '../actors/resources/buildResource';
import type { WorldSpec } from '../actors/world';
import { Sim } from '../sim/sim';
import type { Scenario } from '../scenario/schema/schema';
import { describeStep, fillPlaceholders } from '../actors/client/clientSteps';
import type { ClientConfig, RealStep } from './protocol';
import { clusterShards } from './realCluster';
import { commandLeaseMs, scaledCommand } from './scaledCommand';

/** Where a real client finds what it talks to, as the harness started it. */
export interface ClientWiring {
  scale: number;
  /**
   * The port client `from` reaches `to` (a Redis node or the resource) at: its own, or the port of
   * the link proxy that stages the scenario's network between them (realLinks.ts); `resp` when
   * the line carries Redis's protocol.
   */
  port(from: string, to: string, resp: boolean): Promise<number>;
  /** The scenario's lease service (etcd.ts), if it has one: its id and client URL. */
  leaseService: { id: string; url: string } | null;
  /** The scenario's database (postgres.ts), if it has one: its id and port. */
  dbLock: { id: string; port: number } | null;
  /** The Sentinel group clients of its primary ask, if the scenario has one: its sentinels, and its nodes by the port Sentinel names. */
  sentinel: { name: string; primary: string; ids: readonly string[]; nodes: Record<number, string> } | null;
}

/** What a real client process runs: the simulator's client spec `c`, every duration scaled to real ms. */
export async function clientConfig(
  scenario: Scenario,
  spec: WorldSpec,
  c: ClientSpec,
  wiring: ClientWiring,
): Promise<ClientConfig> {
  const real = (scenarioMs: number) => Math.round(scenarioMs * wiring.scale);
  const wait = spec.topology?.wait ?? null;
  const { sentinel } = wiring;
  // As the simulator's topology has it: a client of the monitored primary (or of the group's
  // name) follows failovers through Sentinel; a client of any other node talks to that node.
  const followsSentinel = sentinel !== null && (c.nodes[0] === sentinel.primary || c.nodes[0] === sentinel.name);
  const resourcePort = await wiring.port(c.id, spec.resource.id, false);
  const steps = c.steps ? realSteps(c, wiring.scale) : null;
  // What the simulator's resource says of this client's change (its own copy, for the words only).
  const resource = buildResource(new Sim(scenario.seed), spec.resource, (client) => client);
  const change = resource.describeRequest(c.id, null);
  // A step list may send commands to other nodes than its own; a cluster client, to every primary.
  const shards = clusterShards(scenario);
  const nodes = [
    ...new Set([
      ...c.nodes,
      ...(shards ?? []).map((s) => s.id),
      ...(steps ?? []).flatMap((s) => (s.do === 'redis' ? [s.node] : [])),
    ]),
  ];
  return {
    id: c.id,
    recipe: c.steps ? null : (c.recipe as NonNullable<ClientConfig['recipe']>),
    steps,
    permits: c.permits ?? 1,
    reenter: c.reenter,
    keys: c.keys,
    value: `${c.id}-${randomBytes(4).toString('hex')}`,
    masters: await Promise.all(
      nodes.map(async (node) => {
        const id = followsSentinel ? sentinel.primary : node;
        return { id, port: await wiring.port(c.id, id, true) };
      }),
    ),
    ...(followsSentinel ? { sentinel: await sentinelWiring(c.id, sentinel, wiring) } : {}),
    ...(shards ? { cluster: shards } : {}),
    ...(c.recipe === 'lease-service' && wiring.leaseService ? { leaseService: wiring.leaseService } : {}),
    ...(wait
      ? { wait: { replicas: wait.replicas, timeoutRealMs: real(wait.timeoutMs), releaseRefused: wait.releaseRefused } }
      : {}),
    ...(c.recipe === 'db-lock' && wiring.dbLock ? { dbLock: wiring.dbLock } : {}),
    redlock: { ...c.redlock, instanceTimeoutMs: Math.max(1, real(c.redlock.instanceTimeoutMs)) },
    resourceId: spec.resource.id,
    resourceUrl: `http://127.0.0.1:${resourcePort}/`,
    readsFirst: resource.readsFirst,
    request: { value: change.value, ...(change.op === 'write' ? {} : { op: change.op }) },
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
      (spec.resource.fencing &&
        ['lease-plain-del', 'lease-with-token', 'watchdog', 'lease-service', 'db-lock'].includes(c.recipe)) ||
      c.tokens,
    onUnavailable: c.onUnavailable,
    ...(c.maxHoldMs === undefined ? {} : { maxHold: { scenarioMs: c.maxHoldMs, realMs: real(c.maxHoldMs) } }),
    ...(c.breaker ? { breaker: { failures: c.breaker.failures, coolDownRealMs: real(c.breaker.coolDownMs) } } : {}),
    retry: c.retry,
    seed: scenario.seed,
    startAtScenarioMs: c.startAtMs,
    scale: wiring.scale,
  };
}

/** How client `id` reaches the sentinels and the nodes they name: through link proxies where the scenario's network touches the pair. */
async function sentinelWiring(
  id: string,
  sentinel: NonNullable<ClientWiring['sentinel']>,
  wiring: ClientWiring,
): Promise<NonNullable<ClientConfig['sentinel']>> {
  return {
    name: sentinel.name,
    ports: await Promise.all(sentinel.ids.map((s) => wiring.port(id, s, true))),
    nodes: await Promise.all(
      Object.entries(sentinel.nodes).map(async ([announced, node]) => ({
        id: node,
        announced: Number(announced),
        port: await wiring.port(id, node, true),
      })),
    ),
  };
}

/**
 * `c`'s step list as its real process carries it out: each command with its durations scaled
 * (support.ts refuses a scale that one cannot be scaled at), each wait scaled, and the lease
 * each command asks for in scenario time (`{ttl}` is the client's TTL), which lock.acquired reports.
 */
function realSteps(c: ClientSpec, scale: number): RealStep[] {
  return c.steps!.map((step): RealStep => {
    const detail = describeStep(step);
    if (step.do === 'wait') return { do: 'wait', ms: Math.round(step.ms * scale), detail };
    if (step.do !== 'redis') return { do: step.do, detail };
    const asWritten = fillPlaceholders(step.argv, {
      value: '',
      token: null,
      key: c.keys[0]!,
      ttlMs: c.ttlMs,
      id: c.id,
    });
    const lease = commandLeaseMs(asWritten);
    return {
      do: 'redis',
      argv: scaledCommand(step.argv, scale)!,
      node: step.node ?? c.nodes[0]!,
      as: step.as,
      ifBusy: step.ifBusy,
      leaseMs: lease === undefined ? c.ttlMs : lease,
      detail,
    };
  });
}
