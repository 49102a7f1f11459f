import { Partitions } from '../net/partitions';
import { sentinelIds } from '../scenario/schema/redisTopology';
import type { Scenario } from '../scenario/schema/schema';
import { scaledCommand } from './scaledCommand';

/** A scenario the harness cannot run yet: `reasons` names each missing part. */
export class UnsupportedScenario extends Error {
  constructor(readonly reasons: string[]) {
    super(`cannot run this scenario on real processes yet:\n${reasons.map((r) => `  - ${r}`).join('\n')}`);
  }
}

/** The script actions the harness carries out on real processes so far. */
const REAL_ACTIONS = new Set([
  'command',
  'pause',
  'resume',
  'crash',
  'restart',
  'clock-jump',
  'power-loss',
  'network',
  'partition',
  'heal',
]);

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
  // Sentinel (redis-server --sentinel) run as real processes. Partitions reach every one of them
  // (serverNetwork.ts); a latency or loss would also have to reach the links between servers,
  // whose fronts only hold what a partition cuts.
  if (redis.sentinels && linkFaultsStaged(scenario))
    reasons.push(
      'Sentinel with a latency, loss or network step (the links between Redis nodes and sentinels only stage partitions): not yet supported',
    );
  // WAIT follows each write of a recipe's client (masterConnection.ts); Redlock's rounds and
  // step lists do not read its count yet.
  for (const c of redis.wait ? scenario.clients : [])
    if (c.steps || c.recipe === 'redlock')
      reasons.push(
        `client ${c.id}: WAIT after the writes of ${c.steps ? 'a step list' : 'Redlock'}: not yet supported`,
      );
  if (redis.cacheLoad) reasons.push('needs a cache load on Redis: not yet supported');
  for (const node of redis.nodes) {
    // An AOF node keeps its file across a SIGKILL with whatever the OS had (redisNodes.ts), as a
    // crash does in the simulator. A power loss also loses what was not yet fsynced: with
    // `appendfsync always` Redis fsyncs every write before it answers, so a SIGKILL keeps what a
    // power cut keeps; with everysec or no, losing the last second takes switching a machine off.
    const powerLoss = scenario.script.find((s) => s.do === 'power-loss' && s.target === node.id);
    if (node.persistence !== 'none' && node.persistence !== 'aof-always' && powerLoss)
      reasons.push(
        `${node.id}: a power loss at ${powerLoss.at} ms with persistence '${node.persistence}' (a SIGKILL keeps what the OS had not yet written to disk; losing it takes switching a machine off): not yet supported`,
      );
    if (node.maxmemory > 0) reasons.push(`${node.id}: maxmemory and eviction: not yet supported`);
  }
  reasons.push(...leaseServiceReasons(scenario), ...databaseReasons(scenario));
  reasons.push(...networkReasons(scenario));
  for (const c of scenario.clients) {
    if (c.driftPpm !== 0) reasons.push(`client ${c.id}: clock drift: not yet supported`);
  }
  const redisIds = new Set(redis.nodes.map((n) => n.id));
  const sentinels = new Set(sentinelIds(redis));
  for (const step of scenario.script) {
    // Steps aimed at a lock service: leaseServiceReasons and databaseReasons.
    if ('target' in step && (step.target === scenario.leaseService?.id || step.target === scenario.dbLock?.id))
      continue;
    if (step.do === 'restart' && !redisIds.has(step.target) && !scenario.clients.some((c) => c.id === step.target))
      reasons.push(
        `script 'restart' at ${step.at} ms: restarting ${sentinels.has(step.target) ? 'sentinel ' : ''}${step.target}: not yet supported`,
      );
    else if (step.do === 'clock-jump' && !redisIds.has(step.target))
      reasons.push(
        `script 'clock-jump' at ${step.at} ms: a clock jump on ${step.target} (only a Redis node's clock is stepped so far): not yet supported`,
      );
    else if (!REAL_ACTIONS.has(step.do)) reasons.push(`script '${step.do}' at ${step.at} ms: not yet supported`);
  }
  return [...new Set(reasons)];
}

/** What the harness does to its etcd (etcd.ts) as the script says: SIGSTOP, SIGCONT, SIGKILL, a new etcd on its data. */
const LEASE_SERVICE_FAULTS = new Set(['pause', 'resume', 'crash', 'restart']);

/**
 * What of a lease service the harness cannot stage on its etcd yet: the network between it and
 * the clients (their calls go straight to it), and a clock jump (etcd is a Go program, which
 * reads the time from the kernel itself, past libfaketime).
 */
function leaseServiceReasons(scenario: Scenario): string[] {
  const service = scenario.leaseService?.id;
  if (service === undefined) return [];
  const reasons: string[] = [];
  const net = scenario.network;
  if (net.latency !== undefined || (net.loss ?? 0) > 0 || net.partitions.length > 0)
    reasons.push(`network faults on every link, the lease service ${service}'s included: not yet supported`);
  for (const step of scenario.script)
    if ('target' in step && step.target === service && !LEASE_SERVICE_FAULTS.has(step.do))
      reasons.push(
        `script '${step.do}' at ${step.at} ms on the lease service ${service} (etcd reads its clock past libfaketime): not yet supported`,
      );
  return reasons;
}

/**
 * What the harness does to its PostgreSQL as the script says: a step of now(). Not a pause: each
 * of PostgreSQL's processes leads a process group of its own, so no one SIGSTOP stops them all.
 */
const DATABASE_FAULTS = new Set(['clock-jump']);

/**
 * What of a database lock table the harness cannot stage on its PostgreSQL yet: a row lock held
 * by an open transaction (`for-update`, whose writes ride in that transaction: the protected
 * table would have to live in the same database), the network to it, a pause, a crash and a restart.
 */
function databaseReasons(scenario: Scenario): string[] {
  const db = scenario.dbLock;
  if (db === undefined) return [];
  const reasons: string[] = [];
  if (db.mode === 'for-update')
    reasons.push(
      `the database lock ${db.id} in mode 'for-update' (a row lock in an open transaction): not yet supported`,
    );
  const net = scenario.network;
  if (net.latency !== undefined || (net.loss ?? 0) > 0 || net.partitions.length > 0)
    reasons.push(`network faults on every link, the database ${db.id}'s included: not yet supported`);
  for (const step of scenario.script)
    if ('target' in step && step.target === db.id && !DATABASE_FAULTS.has(step.do))
      reasons.push(`script '${step.do}' at ${step.at} ms on the database ${db.id}: not yet supported`);
  return reasons;
}

/** Whether the scenario sets a latency or loss on some link (from the start or by a `network` step). */
function linkFaultsStaged(scenario: Scenario): boolean {
  const net = scenario.network;
  return (
    net.latency !== undefined ||
    (net.loss ?? 0) > 0 ||
    net.links.length > 0 ||
    scenario.script.some((s) => s.do === 'network')
  );
}

/**
 * What of the scenario's network the link proxies (linkProxy.ts) cannot stage. They carry
 * clients' connections to Redis nodes as RESP frames, one message each, so latency, loss and
 * partitions (from the start or during the run, one way or both) apply there. The resource's
 * line is HTTP, whose chunks are not messages: it gets latency only. Duplication would have
 * Redis answer a command twice on a connection that expects one reply, and reordering would
 * swap replies ioredis pairs with commands in order; a long tail held back in order would hold
 * up every message behind it, which the simulator's per-message delays do not.
 */
function networkReasons(scenario: Scenario): string[] {
  const reasons: string[] = [];
  const net = scenario.network;
  const resource = scenario.resource.id;
  const known = new Set([...scenario.redis.nodes.map((n) => n.id), ...scenario.clients.map((c) => c.id), resource]);
  const steps = scenario.script.flatMap((s) => (s.do === 'network' ? [s] : []));
  const faults = [{ ...net, from: undefined, to: undefined }, ...net.links, ...steps];
  for (const f of faults) {
    const where = f.from === undefined ? 'every link' : `${f.from} → ${f.to}`;
    if ((f.duplicate ?? 0) > 0) reasons.push(`needs message duplication (${where}): not yet supported`);
    if ((f.reorder ?? 0) > 0) reasons.push(`needs message reordering (${where}): not yet supported`);
    if (typeof f.latency === 'object' && f.latency.dist === 'long-tail')
      reasons.push(`needs a long-tail latency (${where}): not yet supported (a fixed or uniform one is)`);
    const touchesResource = f.from === undefined || f.from === resource || f.to === resource;
    if ((f.loss ?? 0) > 0 && touchesResource)
      reasons.push(
        `needs message loss on the resource's line (${where}): not yet supported (loss between clients and Redis nodes is)`,
      );
    if (f.from !== undefined && (!known.has(f.from) || !known.has(f.to!)))
      reasons.push(
        `needs faults on the link ${where}: only links between clients, Redis nodes and the resource are supported`,
      );
  }
  const partitions = [...net.partitions, ...scenario.script.flatMap((s) => (s.do === 'partition' ? [s] : []))];
  const processes = new Set([
    ...scenario.redis.nodes.map((n) => n.id),
    ...sentinelIds(scenario.redis),
    ...scenario.clients.map((c) => c.id),
  ]);
  const shards = scenario.redis.cluster ? scenario.redis.nodes.map((n) => n.id) : [];
  for (const p of partitions) {
    const cuts = new Partitions();
    cuts.split(p.groups, p.oneWay);
    // Cluster nodes talk on a bus of their own, which no front stands in front of.
    if (shards.some((a) => shards.some((b) => cuts.blocks(a, b))))
      reasons.push(
        `a partition between cluster nodes (${p.groups.map((g) => g.join(' ')).join(' | ')}): the cluster bus is not staged: not yet supported`,
      );
    if (!p.groups.flat().every((id) => processes.has(id)))
      reasons.push(
        `a partition of ${p.groups.map((g) => g.join(' ')).join(' | ')}: only partitions between clients, Redis nodes and sentinels are supported`,
      );
  }
  return reasons;
}

/** Why `scenario` cannot run at `scale` (empty: it can). */
export function scaleProblems(scenario: Scenario, scale: number): string[] {
  const problems =
    scenario.redis.sentinels && scale < SENTINEL_MIN_SCALE
      ? [
          `Sentinel at scale ${scale}: its own periods (PING and INFO every second, hello every 2 s, an election delay of up to 1 s) do not scale; run it with --scale ${SENTINEL_MIN_SCALE} or more`,
        ]
      : [];
  const shards = new Set(scenario.redis.cluster ? scenario.redis.nodes.map((n) => n.id) : []);
  const restarted = scenario.script.find((s) => s.do === 'restart' && shards.has(s.target));
  if (restarted && scale < 1)
    problems.push(
      `restarting cluster node ${(restarted as { target: string }).target} at scale ${scale}: a restarted master refuses writes for Redis's fixed 2 s, which does not scale; run it with --scale 1`,
    );
  for (const c of scenario.clients) {
    const ttlSeconds = (c.ttl * scale) / 1000;
    // etcd grants leases in whole seconds, one at least (etcd.ts).
    if (c.recipe === 'lease-service' && !(Number.isInteger(ttlSeconds) && ttlSeconds >= 1))
      problems.push(
        `client ${c.id}: a lease of ${ttlSeconds} s at scale ${scale}: etcd grants whole seconds, one at least; pick a scale that makes it one`,
      );
    for (const [index, step] of (c.steps ?? []).entries())
      if (step.do === 'redis' && scaledCommand(step.argv, scale) === null)
        problems.push(
          `client ${c.id}, step ${index + 1} (${step.argv[0]}): a duration among its arguments cannot be told apart (a script's numbers, an absolute expiry); run it with --scale 1`,
        );
  }
  return problems;
}
