import { DEFAULT_FAULTS } from '../../net/faults';
import type { NetworkOptions } from '../../net/network';
import { DEFAULT_REDLOCK } from '../../actors/recipes/redlock';
import { keyOf } from '../../actors/client/clientSteps';
import { DEFAULT_RETRY, type RetryPolicy } from '../../actors/client/retryPolicy';
import type { ClientSpec } from '../../actors/client/clientSpec';
import type { WorldSpec } from '../../actors/world';
import type { ClientInput, NetworkInput, Scenario } from '../schema/schema';
import { faultsOf } from '../schema/scriptActions';
import { topologySpec } from '../schema/redisTopology';
import { servicesSpec } from '../schema/services';

/** Redlock's retry defaults (node-redlock v5: 10 retries, 200 ms apart, up to 100 ms of jitter). */
const REDLOCK_RETRY: RetryPolicy = { policy: 'fixed', delayMs: 200, maxDelayMs: 200, jitterMs: 100, attempts: 11 };

/** Resolves a validated scenario into the plain spec a World is built from. */
export function worldSpec(scenario: Scenario, overrides: { fencing?: boolean } = {}): WorldSpec {
  const nodeIds = scenario.redis.nodes.map((n) => n.id);
  return {
    network: networkOptions(scenario.network),
    redisNodes: scenario.redis.nodes.map((n) => ({ id: n.id, label: n.label ?? `Redis ${n.id}` })),
    topology: topologySpec(scenario.redis),
    services: servicesSpec(scenario),
    clients: scenario.clients.map((c) => clientSpec(c, nodeIds)),
    resource: {
      id: scenario.resource.id,
      label: scenario.resource.label ?? scenario.resource.id,
      kind: scenario.resource.kind,
      fencing: overrides.fencing ?? scenario.resource.fencing,
      fenceCompare: scenario.resource.fenceCompare,
      stock: scenario.resource.stock,
      order: scenario.resource.order,
      idempotencyKeys: scenario.resource.idempotencyKeys,
      conditional: scenario.resource.conditional,
    },
  };
}

function clientSpec(c: ClientInput, nodeIds: string[]): ClientSpec {
  const keys = c.keys ?? [c.key ?? stepLockKey(c) ?? 'lock'];
  const watchdog = c.renewEvery !== undefined || (c.renew ?? c.recipe === 'watchdog');
  return {
    id: c.id,
    label: c.label ?? c.id,
    // A step client has no recipe; the field is unused for it (see ClientSpec.steps).
    recipe: c.recipe ?? 'lease-with-token',
    nodes: c.recipe === 'redlock' ? (c.nodes ?? nodeIds) : [c.node ?? c.nodes?.[0] ?? nodeIds[0]!],
    keys: c.ordered ? [...keys].sort() : keys,
    ttlMs: c.ttl,
    workMs: c.work === 'forever' ? null : c.work,
    startAtMs: c.startAt,
    retry: retryPolicy(c),
    timeoutMs: c.timeout ?? null,
    renewEveryMs: watchdog ? (c.renewEvery ?? Math.max(1, Math.floor(c.ttl / 3))) : null,
    onRenewFail: c.onRenewFail,
    reenter: c.reenter,
    jobs: c.jobs,
    gapMs: c.gap,
    tokens: c.tokens,
    driftPpm: c.driftPpm,
    onUnavailable: c.onUnavailable,
    redlock: c.redlock
      ? {
          instanceTimeoutMs: c.redlock.instanceTimeout,
          driftFactor: c.redlock.driftFactor,
          validity: c.redlock.validity,
        }
      : DEFAULT_REDLOCK,
    ...(c.steps ? { steps: c.steps } : {}),
    // Only clients that use them carry these, so every other client's spec stays as it was.
    ...(c.permits !== undefined ? { permits: c.permits } : {}),
    ...(c.maxHold !== undefined ? { maxHoldMs: c.maxHold } : {}),
    ...(c.breaker ? { breaker: { failures: c.breaker.failures, coolDownMs: c.breaker.coolDown } } : {}),
  };
}

/** A step client's lock key, when it names none: the key its first acquiring step takes. */
function stepLockKey(c: ClientInput): string | undefined {
  const first = c.steps?.find((s) => s.do === 'redis' && s.as === 'acquire');
  const key = first?.do === 'redis' ? keyOf(first.argv) : null;
  return key !== null && !key.includes('{') ? key : undefined;
}

function retryPolicy(c: ClientInput): RetryPolicy {
  const base = c.recipe === 'redlock' ? REDLOCK_RETRY : DEFAULT_RETRY;
  if (c.retry === undefined) return base;
  const r = typeof c.retry === 'string' ? { policy: c.retry } : c.retry;
  const delayMs = r.delay ?? base.delayMs;
  return {
    policy: r.policy,
    delayMs,
    maxDelayMs: r.maxDelay ?? Math.max(delayMs, r.policy === 'exponential' ? 30_000 : delayMs),
    jitterMs: r.jitter ?? (r.policy === base.policy ? base.jitterMs : 0),
    attempts: r.attempts ?? (r.policy === base.policy ? base.attempts : null),
    ...('jitterSeed' in r && r.jitterSeed !== undefined ? { jitterSeed: r.jitterSeed } : {}),
    ...('fullJitter' in r && r.fullJitter ? { fullJitter: true } : {}),
  };
}

function networkOptions(n: NetworkInput): NetworkOptions {
  return {
    defaults: { ...DEFAULT_FAULTS, reorderDelayMs: n.reorderDelay, ...faultsOf(n) },
    links: n.links.map(({ from, to, ...f }) => ({ from, to, faults: faultsOf(f) })),
  };
}
