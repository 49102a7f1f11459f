import type { Action } from '../../actors/action';
import { inferMeaning, type ClientStep } from '../../actors/client/clientSteps';
import { FENCEABLE_KINDS } from '../../actors/resources/resource';
import type { LatencyDist } from '../../net/faults';
import { simTime } from '../../sim/time';
import { toAction } from '../schema/scriptActions';
import type { RedisInput } from '../schema/redisSchema';
import type { ClientInput, Scenario, ScenarioInput, ScriptAction } from '../schema/schema';

/**
 * A validated scenario written back in the notation its author could have used (durations as
 * `250ms`/`10s`, defaults left out), so that `scenarioSchema` parses it back to the same
 * scenario. The sandbox's YAML export (toYaml.ts) and share links both carry a scenario this way:
 * the validated form is not input to the schema (a step's `node` is `null` there, durations are
 * numbers, inferred meanings are filled in).
 */

/** A duration in the scenario format: `250ms`, `10s`. */
export function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** A duration, or nothing when it is the schema's default (so the file shows only what was chosen). */
function durationUnless(ms: number | undefined, defaultMs?: number): string | undefined {
  return ms === undefined || ms === defaultMs ? undefined : duration(ms);
}

/** The value, or nothing when it is the schema's default. */
function unlessDefault<T>(value: T, defaultValue: T): T | undefined {
  return value === defaultValue ? undefined : value;
}

/** Drops the keys left undefined, so an exported object lists only what was set. */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** A network latency back in the scenario's own notation. */
function latencyInput(l: LatencyDist): unknown {
  switch (l.dist) {
    case 'fixed':
      return duration(l.ms);
    case 'uniform':
      return { min: duration(l.minMs), max: duration(l.maxMs) };
    case 'long-tail':
      return { dist: 'long-tail', min: duration(l.minMs), median: duration(l.medianMs), max: duration(l.maxMs) };
  }
}

/** A latency as the scenario's schema holds it (a long tail's median may be left to its default). */
type ScenarioLatency = NonNullable<Scenario['network']['latency']>;

/** A scenario's own latency, written back as its author could have: a long tail without a median keeps none. */
function scenarioLatencyInput(l: ScenarioLatency): unknown {
  if (typeof l === 'number') return duration(l);
  if (l.dist === 'long-tail')
    return compact({ dist: 'long-tail', min: duration(l.min), median: durationUnless(l.median), max: duration(l.max) });
  return { min: duration(l.min), max: duration(l.max) };
}

/** The fault knobs that were given, with the latency already written out; unset knobs stay out. */
function faultsInput(
  latency: unknown,
  f: { loss?: number | undefined; duplicate?: number | undefined; reorder?: number | undefined },
): Record<string, unknown> {
  return compact({ latency, loss: f.loss, duplicate: f.duplicate, reorder: f.reorder });
}

/** A scenario's own fault knobs (its network section, a link, a network action). */
function scenarioFaultsInput(f: {
  latency?: ScenarioLatency | undefined;
  loss?: number | undefined;
  duplicate?: number | undefined;
  reorder?: number | undefined;
}): Record<string, unknown> {
  return faultsInput(f.latency === undefined ? undefined : scenarioLatencyInput(f.latency), f);
}

/** An action as a script entry, so an exported file replays what the learner did. */
export function actionInput(a: Action): Record<string, unknown> {
  const at = duration(a.at);
  switch (a.do) {
    case 'pause':
      return compact({ at, do: 'pause', target: a.target, for: durationUnless(a.forMs) });
    case 'clock-jump':
      return { at, do: 'clock-jump', target: a.target, by: duration(a.byMs) };
    case 'partition':
      return compact({ at, do: 'partition', groups: a.groups, oneWay: a.oneWay || undefined });
    case 'heal':
      return { at, do: 'heal' };
    case 'command':
      return { at, do: 'command', target: a.target, argv: a.argv };
    case 'network':
      return compact({
        at,
        do: 'network',
        from: a.from,
        to: a.to,
        ...faultsInput(a.latency && latencyInput(a.latency), a),
      });
    case 'resume':
    case 'crash':
    case 'restart':
    case 'failover':
    case 'power-loss':
      return { at, do: a.do, target: a.target };
  }
}

/** A script entry as its author wrote it (a network action keeps its latency notation). */
export function scriptActionInput(s: ScriptAction): Record<string, unknown> {
  if (s.do !== 'network') return actionInput({ ...toAction(s), at: simTime(s.at) } as Action);
  const { at, do: _do, from, to, ...faults } = s;
  return compact({ at: duration(at), do: 'network', from, to, ...scenarioFaultsInput(faults) });
}

/** A number-like word of a Redis command (`PX 3000`) is written bare, as authors write it. */
function argvWord(word: string): string | number {
  return /^(0|-?[1-9]\d{0,14})$/.test(word) ? Number(word) : word;
}

/** One step of a step-list client back in the scenario's notation; inferred `as` and the default `ifBusy` stay implicit. */
function clientStepInput(s: ClientStep): Record<string, unknown> {
  switch (s.do) {
    case 'redis':
      return compact({
        redis: s.argv.map(argvWord),
        node: s.node ?? undefined,
        as: unlessDefault(s.as, inferMeaning(s.argv)),
        ifBusy: unlessDefault(s.ifBusy, 'retry'),
      });
    case 'wait':
      return { wait: duration(s.ms) };
    case 'read':
      return { read: s.resource };
    case 'write':
      return { write: s.resource };
  }
}

/** A retry policy as written: a bare policy name, or its settings with durations. */
function retryInput(r: ClientInput['retry']): unknown {
  if (r === undefined || typeof r === 'string') return r;
  return compact({
    policy: r.policy,
    delay: durationUnless(r.delay),
    maxDelay: durationUnless(r.maxDelay),
    jitter: durationUnless(r.jitter),
    attempts: r.attempts,
    jitterSeed: r.jitterSeed,
    fullJitter: r.fullJitter,
  });
}

/**
 * A client as a scenario writes it. A step client gets none of the recipe-only keys (the
 * parser rejects them there even at their defaults), nor its implicit 10 s `{ttl}`.
 */
function clientInput(c: ClientInput): Record<string, unknown> {
  const stepList = c.steps !== undefined;
  return compact({
    id: c.id,
    label: c.label,
    recipe: c.recipe,
    key: c.key,
    keys: c.keys,
    ordered: c.ordered || undefined,
    node: c.node,
    nodes: c.nodes,
    ttl: stepList ? durationUnless(c.ttl, 10_000) : duration(c.ttl),
    work: stepList ? undefined : c.work === 'forever' ? 'forever' : duration(c.work),
    startAt: durationUnless(c.startAt, 0),
    retry: retryInput(c.retry),
    timeout: durationUnless(c.timeout),
    renew: c.renew,
    renewEvery: durationUnless(c.renewEvery),
    maxHold: durationUnless(c.maxHold),
    onRenewFail: unlessDefault(c.onRenewFail, 'stop'),
    reenter: unlessDefault(c.reenter, 0),
    jobs: unlessDefault(c.jobs, 1),
    gap: durationUnless(c.gap, 0),
    tokens: c.tokens || undefined,
    onUnavailable: unlessDefault(c.onUnavailable, 'refuse'),
    driftPpm: unlessDefault(c.driftPpm, 0),
    permits: c.permits,
    breaker: c.breaker && { failures: c.breaker.failures, coolDown: duration(c.breaker.coolDown) },
    redlock: c.redlock && {
      instanceTimeout: duration(c.redlock.instanceTimeout),
      driftFactor: c.redlock.driftFactor,
      validity: c.redlock.validity,
    },
    steps: c.steps?.map(clientStepInput),
  });
}

/** A memory size as Redis reads it: `2mb` when it is a whole number of MiB, else bytes. */
function memoryInput(bytes: number): string | number {
  for (const [unit, size] of [
    ['gb', 1024 ** 3],
    ['mb', 1024 ** 2],
    ['kb', 1024],
  ] as const)
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  return bytes;
}

/** One Redis node, with only the settings that differ from the defaults. */
function redisNodeInput(n: RedisInput['nodes'][number]): Record<string, unknown> {
  return compact({
    id: n.id,
    label: n.label,
    role: n.role,
    replicaOf: n.replicaOf,
    priority: unlessDefault(n.priority, 100),
    lag: durationUnless(n.lag, 0),
    persistence: unlessDefault(n.persistence, 'none'),
    minReplicasToWrite: unlessDefault(n.minReplicasToWrite, 0),
    minReplicasMaxLag: durationUnless(n.minReplicasMaxLag, 10_000),
    maxmemory: n.maxmemory === 0 ? undefined : memoryInput(n.maxmemory),
    maxmemoryPolicy: unlessDefault(n.maxmemoryPolicy, 'noeviction'),
    slots: n.slots?.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', '),
  });
}

/** The redis section: nodes, sentinels, WAIT, cache load and cluster mode, defaults left out. */
function redisInput(r: RedisInput): Record<string, unknown> {
  const s = r.sentinels;
  const load = r.cacheLoad;
  return compact({
    nodes: r.nodes.map(redisNodeInput),
    // With ids given, the ids decide how many sentinels there are.
    sentinels:
      s &&
      compact({
        count: s.ids ? undefined : unlessDefault(s.count, 3),
        ids: s.ids,
        quorum: s.quorum,
        downAfter: durationUnless(s.downAfter, 30_000),
        failoverTimeout: durationUnless(s.failoverTimeout, 180_000),
        name: unlessDefault(s.name, 'mymaster'),
        monitor: s.monitor,
      }),
    wait: r.wait && {
      replicas: r.wait.replicas,
      timeout: duration(r.wait.timeout),
      releaseRefused: r.wait.releaseRefused || undefined,
    },
    cacheLoad:
      load &&
      compact({
        target: load.target,
        every: durationUnless(load.every, 100),
        valueSize: unlessDefault(load.valueSize, 10_000),
        ttl: durationUnless(load.ttl, 3_600_000),
        startAt: durationUnless(load.startAt, 0),
        writes: load.writes,
        reads: load.reads || undefined,
      }),
    cluster: r.cluster || undefined,
  });
}

/** The network section (whole-network faults, per-link overrides, partitions from the start), or nothing when it is all defaults. */
function networkInput(n: Scenario['network']): Record<string, unknown> | undefined {
  const written = compact({
    ...scenarioFaultsInput(n),
    reorderDelay: durationUnless(n.reorderDelay, 50),
    links: n.links.length ? n.links.map(({ from, to, ...f }) => ({ from, to, ...scenarioFaultsInput(f) })) : undefined,
    partitions: n.partitions.length
      ? n.partitions.map((p) => compact({ groups: p.groups, oneWay: p.oneWay || undefined }))
      : undefined,
  });
  return Object.keys(written).length ? written : undefined;
}

/** The checker settings that differ from the defaults, or nothing when none do. */
function checksInput(checks: Scenario['checks']): Record<string, unknown> | undefined {
  const given = compact({
    progressWithin: durationUnless(checks.progressWithin, 30_000),
    maxWait: durationUnless(checks.maxWait),
    downAttemptsPerSecond: checks.downAttemptsPerSecond,
  });
  return Object.keys(given).length > 0 ? given : undefined;
}

/** The resource; `fencing` is the learner's switch, written only where the resource can check tokens. */
function resourceInput(r: Scenario['resource'], fencing: boolean): Record<string, unknown> {
  return compact({
    id: r.id,
    label: r.label,
    kind: r.kind,
    fencing: FENCEABLE_KINDS.includes(r.kind) ? fencing : undefined,
    fenceCompare: unlessDefault(r.fenceCompare, 'lenient'),
    stock: unlessDefault(r.stock, 10),
    order: unlessDefault(r.order, 'order-42'),
    idempotencyKeys: r.idempotencyKeys || undefined,
    conditional: r.conditional || undefined,
  });
}

/** The scenario's keys in the order a person writes them, each only where it says something. */
export function scenarioInput(
  scenario: Scenario,
  options: { seed?: number; fencing?: boolean; script?: readonly Record<string, unknown>[] } = {},
): ScenarioInput {
  const script = options.script ?? scenario.script.map(scriptActionInput);
  return compact({
    id: scenario.id,
    title: scenario.title,
    seed: options.seed ?? scenario.seed,
    horizon: duration(scenario.horizon),
    view: scenario.view && { from: duration(scenario.view.from), to: duration(scenario.view.to) },
    redis: redisInput(scenario.redis),
    network: networkInput(scenario.network),
    leaseService:
      scenario.leaseService && compact({ id: scenario.leaseService.id, label: scenario.leaseService.label }),
    dbLock:
      scenario.dbLock &&
      compact({
        id: scenario.dbLock.id,
        label: scenario.dbLock.label,
        mode: scenario.dbLock.mode,
        idleTimeout: durationUnless(scenario.dbLock.idleTimeout),
      }),
    clients: scenario.clients.map(clientInput),
    resource: resourceInput(scenario.resource, options.fencing ?? scenario.resource.fencing),
    script: script.length ? script : undefined,
    controls: scenario.controls,
    checks: checksInput(scenario.checks),
    expect: scenario.expect.length ? scenario.expect : undefined,
  }) as ScenarioInput;
}
