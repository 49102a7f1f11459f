import type { Scenario } from '../scenario/schema/schema';

/** The recipes a real client runs so far (lockClientProcess.ts). */
export const REAL_RECIPES = [
  'lease-plain-del',
  'lease-with-token',
  'watchdog',
  'setnx-then-expire',
  'get-then-set',
  'redlock',
] as const;

/** The script actions the harness carries out on real processes so far. */
const REAL_ACTIONS = new Set(['pause', 'resume', 'crash', 'restart', 'clock-jump', 'power-loss']);

/**
 * The smallest --scale a scenario with Sentinel runs at. Sentinel has periods of its own that no
 * setting scales (a PING and an INFO every second, hello messages every 2 s, an election delay
 * of up to a second): at scale 1 they are the simulated Sentinel's periods; below it they stretch
 * in scenario time: lesson 9's B took the lock 1.0 s later than in the simulator at scale 1,
 * 2.5 s later at 0.5 and 5.1 s later at 0.25, 0.7 s before A's write (README, Reality check).
 */
const SENTINEL_MIN_SCALE = 1;

/**
 * Why the harness cannot run `scenario` on real processes yet, one named reason each (empty:
 * it can). Asked before anything starts, so a scenario out of reach is refused by name rather
 * than run half-way and judged wrongly.
 */
export function unsupportedParts(scenario: Scenario): string[] {
  const reasons: string[] = [];
  const redis = scenario.redis;
  // Independent masters (Redlock's), replicas (redis-server --replicaof, its lag on the link) and
  // Sentinel (redis-server --sentinel) run as real processes. A client that follows the primary
  // asks Sentinel for it and dials it directly, so nothing of the network can sit in between yet.
  if (redis.sentinels && scenario.network.latency !== undefined)
    reasons.push(
      'Sentinel with a network latency (clients dial the primary Sentinel names directly): not yet supported',
    );
  if (redis.sentinels && scenario.network.partitions.length > 0)
    reasons.push('Sentinel with a partition (clients dial the primary Sentinel names directly): not yet supported');
  if (redis.cluster) reasons.push('needs Redis Cluster: not yet supported');
  if (redis.wait) reasons.push('needs WAIT after writes: not yet supported');
  if (redis.cacheLoad) reasons.push('needs a cache load on Redis: not yet supported');
  for (const node of redis.nodes) {
    if (node.persistence !== 'none')
      reasons.push(`${node.id}: persistence '${node.persistence}' (AOF): not yet supported`);
    if (node.maxmemory > 0) reasons.push(`${node.id}: maxmemory and eviction: not yet supported`);
  }
  if (scenario.leaseService || scenario.dbLock)
    reasons.push('needs a lock service other than Redis: not yet supported');
  const net = scenario.network;
  const faulty = net.loss !== undefined || net.duplicate !== undefined || net.reorder !== undefined;
  if (faulty) reasons.push('needs message loss, duplication or reordering: not yet supported');
  // A partition in place from the start between clients and Redis nodes is a client's connection
  // to a port that never answers (blackHole.ts); one that cuts anything else, or one way only, is not yet.
  const redisOrClient = new Set([...redis.nodes.map((n) => n.id), ...scenario.clients.map((c) => c.id)]);
  for (const p of net.partitions)
    if (p.oneWay || !p.groups.flat().every((id) => redisOrClient.has(id)))
      reasons.push(
        `a partition of ${p.groups.map((g) => g.join(' ')).join(' | ')}: only two-way partitions between clients and Redis nodes are supported`,
      );
  if (net.links.length > 0) reasons.push('needs faults on single links (network.links): not yet supported');
  if (typeof net.latency === 'object' && net.latency.dist === 'long-tail')
    reasons.push('needs a long-tail latency: not yet supported (a fixed or uniform one is)');
  if (!['store', 'db-row'].includes(scenario.resource.kind))
    reasons.push(`resource kind '${scenario.resource.kind}': not yet supported (store and db-row are)`);
  for (const c of scenario.clients) {
    if (c.steps) reasons.push(`client ${c.id}: step lists: not yet supported`);
    else if (!(REAL_RECIPES as readonly string[]).includes(c.recipe!))
      reasons.push(`client ${c.id}: recipe '${c.recipe}': not yet supported (${REAL_RECIPES.join(', ')} are)`);
    if (c.keys && c.keys.length > 1) reasons.push(`client ${c.id}: several lock keys: not yet supported`);
    if (c.driftPpm !== 0) reasons.push(`client ${c.id}: clock drift: not yet supported`);
    if (c.breaker) reasons.push(`client ${c.id}: circuit breaker: not yet supported`);
    if (c.maxHold !== undefined) reasons.push(`client ${c.id}: maxHold: not yet supported`);
    if (c.reenter > 0) reasons.push(`client ${c.id}: reentering: not yet supported`);
  }
  const redisIds = new Set(redis.nodes.map((n) => n.id));
  for (const step of scenario.script) {
    if (step.do === 'restart' && !redisIds.has(step.target) && !scenario.clients.some((c) => c.id === step.target))
      reasons.push(`script 'restart' at ${step.at} ms: restarting sentinel ${step.target}: not yet supported`);
    else if (step.do === 'clock-jump' && !redisIds.has(step.target))
      reasons.push(
        `script 'clock-jump' at ${step.at} ms: a clock jump on ${step.target} (only a Redis node's clock is stepped so far): not yet supported`,
      );
    else if (!REAL_ACTIONS.has(step.do))
      reasons.push(
        `script '${step.do}' at ${step.at} ms: ${step.do === 'partition' || step.do === 'heal' || step.do === 'network' ? 'network faults (a TCP proxy)' : `'${step.do}'`}: not yet supported`,
      );
  }
  return [...new Set(reasons)];
}

/** Why `scale` is too small for `scenario` (empty: it is not). */
export function scaleProblems(scenario: Scenario, scale: number): string[] {
  return scenario.redis.sentinels && scale < SENTINEL_MIN_SCALE
    ? [
        `Sentinel at scale ${scale}: its own periods (PING and INFO every second, hello every 2 s, an election delay of up to 1 s) do not scale; run it with --scale ${SENTINEL_MIN_SCALE} or more`,
      ]
    : [];
}
