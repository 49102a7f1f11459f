import { Document, isMap, isScalar, isSeq, visit, type Node, type YAMLMap } from 'yaml';
import { inferMeaning, type ClientStep } from '../../actors/clientSteps';
import { FENCEABLE_KINDS } from '../../actors/resources/resource';
import type { LatencyDist } from '../../net/faults';
import { toAction } from '../../scenario/build';
import { describeAction } from '../../scenario/describeAction';
import { checkRedis, isRedisStep, topologySpec, type RedisInput } from '../../scenario/redisSchema';
import { CONTROLS, RECIPES, RESOURCE_KINDS, scenarioSchema, type ClientInput, type RecipeName, type Scenario, type Step } from '../../scenario/schema';
import type { LearnerAction } from '../../scenario/simulation';

/** One client as the sandbox form edits it (times in seconds, as a person types them). */
export interface SandboxClient {
  id: string;
  label: string;
  recipe: RecipeName;
  ttlS: number;
  workS: number;
  startAtS: number;
}

/** What the sandbox form holds. */
export interface SandboxSpec {
  title: string;
  seed: number;
  nodes: number;
  clients: SandboxClient[];
  resourceKind: (typeof RESOURCE_KINDS)[number];
  fencing: boolean;
}

export { RECIPES, RESOURCE_KINDS };

/** Where the sandbox starts: two clients on one Redis node, the classic race. */
export const DEFAULT_SANDBOX: SandboxSpec = {
  title: 'My sandbox',
  seed: 1,
  nodes: 1,
  clients: [
    { id: 'A', label: 'Client A', recipe: 'lease-with-token', ttlS: 10, workS: 6, startAtS: 0 },
    { id: 'B', label: 'Client B', recipe: 'lease-with-token', ttlS: 10, workS: 2, startAtS: 4 },
  ],
  resourceKind: 'store',
  fencing: false,
};

/** The next free client id: A, B, … Z, then C27, C28… */
export function nextClientId(clients: readonly SandboxClient[]): string {
  const taken = new Set(clients.map((c) => c.id));
  for (let i = 0; i < 26; i++) {
    const id = String.fromCharCode(65 + i);
    if (!taken.has(id)) return id;
  }
  let n = 27;
  while (taken.has(`C${n}`)) n++;
  return `C${n}`;
}

/**
 * Turns the form into a validated scenario with every control enabled (the sandbox is for
 * breaking things). Returns the zod error's first message when the form holds nonsense.
 */
export function sandboxScenario(spec: SandboxSpec): { ok: true; scenario: Scenario } | { ok: false; message: string } {
  const ms = (s: number) => Math.round(s * 1000);
  const fenceable = spec.resourceKind === 'store' || spec.resourceKind === 'db-row';
  const input = {
    id: 'sandbox',
    title: spec.title.trim() || 'My sandbox',
    seed: spec.seed,
    redis: { nodes: Array.from({ length: Math.max(1, Math.min(7, spec.nodes)) }, (_, i) => ({ id: `r${i + 1}` })) },
    clients: spec.clients.map((c) => ({ id: c.id, label: c.label || c.id, recipe: c.recipe, ttl: ms(c.ttlS), work: ms(c.workS), startAt: ms(c.startAtS) })),
    resource: { id: 'store', label: 'Store', kind: spec.resourceKind, fencing: fenceable && spec.fencing },
    controls: [...CONTROLS],
  };
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, scenario: parsed.data };
}

/** A duration in the scenario format: `250ms`, `10s`. */
function duration(ms: number): string {
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
  if (l.dist === 'long-tail') return compact({ dist: 'long-tail', min: duration(l.min), median: durationUnless(l.median), max: duration(l.max) });
  return { min: duration(l.min), max: duration(l.max) };
}

/** The fault knobs that were given, with the latency already written out; unset knobs stay out. */
function faultsInput(latency: unknown, f: { loss?: number | undefined; duplicate?: number | undefined; reorder?: number | undefined }): Record<string, unknown> {
  return compact({ latency, loss: f.loss, duplicate: f.duplicate, reorder: f.reorder });
}

/** A scenario's own fault knobs (its network section, a link, a network step). */
function scenarioFaultsInput(f: { latency?: ScenarioLatency | undefined; loss?: number | undefined; duplicate?: number | undefined; reorder?: number | undefined }): Record<string, unknown> {
  return faultsInput(f.latency === undefined ? undefined : scenarioLatencyInput(f.latency), f);
}

/** A learner action as a script step, so an exported file replays what the learner did. */
export function actionToStep(a: LearnerAction): Record<string, unknown> {
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
      return compact({ at, do: 'network', from: a.from, to: a.to, ...faultsInput(a.latency && latencyInput(a.latency), a) });
    case 'resume':
    case 'crash':
    case 'restart':
    case 'failover':
    case 'power-loss':
      return { at, do: a.do, target: a.target };
  }
}

/** A scripted step as its author wrote it (a network step keeps its latency notation). */
function scriptStepInput(s: Step): Record<string, unknown> {
  if (s.do !== 'network') return actionToStep({ ...toAction(s), at: s.at });
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
      return compact({ redis: s.argv.map(argvWord), node: s.node ?? undefined, as: unlessDefault(s.as, inferMeaning(s.argv)), ifBusy: unlessDefault(s.ifBusy, 'retry') });
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
  return compact({ policy: r.policy, delay: durationUnless(r.delay), maxDelay: durationUnless(r.maxDelay), jitter: durationUnless(r.jitter), attempts: r.attempts, jitterSeed: r.jitterSeed });
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
    onRenewFail: unlessDefault(c.onRenewFail, 'stop'),
    reenter: unlessDefault(c.reenter, 0),
    jobs: unlessDefault(c.jobs, 1),
    gap: durationUnless(c.gap, 0),
    tokens: c.tokens || undefined,
    onUnavailable: unlessDefault(c.onUnavailable, 'refuse'),
    driftPpm: unlessDefault(c.driftPpm, 0),
    redlock: c.redlock && { instanceTimeout: duration(c.redlock.instanceTimeout), driftFactor: c.redlock.driftFactor },
    steps: c.steps?.map(clientStepInput),
  });
}

/** A memory size as Redis reads it: `2mb` when it is a whole number of MiB, else bytes. */
function memoryInput(bytes: number): string | number {
  for (const [unit, size] of [['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]] as const) if (bytes % size === 0) return `${bytes / size}${unit}`;
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
    sentinels: s && compact({ count: s.ids ? undefined : unlessDefault(s.count, 3), ids: s.ids, quorum: s.quorum, downAfter: durationUnless(s.downAfter, 30_000), failoverTimeout: durationUnless(s.failoverTimeout, 180_000), name: unlessDefault(s.name, 'mymaster'), monitor: s.monitor }),
    wait: r.wait && { replicas: r.wait.replicas, timeout: duration(r.wait.timeout) },
    cacheLoad: load && compact({ target: load.target, every: durationUnless(load.every, 100), valueSize: unlessDefault(load.valueSize, 10_000), ttl: durationUnless(load.ttl, 3_600_000), startAt: durationUnless(load.startAt, 0), writes: load.writes, reads: load.reads || undefined }),
    cluster: r.cluster || undefined,
  });
}

/** The network section (whole-network faults, per-link overrides, partitions from the start), or nothing when it is all defaults. */
function networkInput(n: Scenario['network']): Record<string, unknown> | undefined {
  const written = compact({
    ...scenarioFaultsInput(n),
    reorderDelay: durationUnless(n.reorderDelay, 50),
    links: n.links.length ? n.links.map(({ from, to, ...f }) => ({ from, to, ...scenarioFaultsInput(f) })) : undefined,
    partitions: n.partitions.length ? n.partitions.map((p) => compact({ groups: p.groups, oneWay: p.oneWay || undefined })) : undefined,
  });
  return Object.keys(written).length ? written : undefined;
}

/** The resource; `fencing` is the learner's switch, written only where the resource can check tokens. */
function resourceInput(r: Scenario['resource'], fencing: boolean): Record<string, unknown> {
  return compact({
    id: r.id,
    label: r.label,
    kind: r.kind,
    fencing: FENCEABLE_KINDS.includes(r.kind) ? fencing : undefined,
    stock: unlessDefault(r.stock, 10),
    order: unlessDefault(r.order, 'order-42'),
    idempotencyKeys: r.idempotencyKeys || undefined,
    conditional: r.conditional || undefined,
  });
}

/** A map of plain values (or short lists and maps of them) reads best on one line, as lessons write it. */
function flatEnough(node: YAMLMap): boolean {
  // Lists of maps (a redis section's nodes) stay one item a line.
  const words = (v: unknown): boolean => isScalar(v) || (isSeq(v) && v.items.every(words));
  const flat = (v: unknown): boolean => words(v) || (isMap(v) && v.items.every((pair) => flat(pair.value)));
  return flat(node) && JSON.stringify(node.toJSON()).length <= 110;
}

/** What becomes of a learner action the file format cannot hold as it was done. */
type Rewrite = { kind: 'left-out'; why: string } | { kind: 'renamed'; target: string; why: string };

/**
 * The learner actions a scenario file cannot hold as done, found with the parser's own check: a
 * failover or power loss aimed where the format allows none (a lone primary, a lock service,
 * a replica promoted during the run). Under Sentinel, failing over any member of the group is
 * the group's failover, so it is written as the group's; the others did nothing or cannot be
 * said, and are left out.
 */
function rewrites(scenario: Scenario, actions: readonly LearnerAction[]): Map<number, Rewrite> {
  const out = new Map<number, Rewrite>();
  const steps = actions.map((a) => (isRedisStep(a) && 'target' in a ? { do: a.do, target: a.target } : { do: a.do }));
  const sentinels = topologySpec(scenario.redis).sentinels;
  const members = sentinels ? scenario.redis.nodes.filter((n) => n.id === sentinels.primary || n.replicaOf === sentinels.primary).map((n) => n.id) : [];
  checkRedis(scenario.redis, steps, (path, message, hint) => {
    const i = path[0] === 'script' && typeof path[1] === 'number' ? path[1] : undefined;
    const a = i === undefined ? undefined : actions[i];
    if (i === undefined || a === undefined || out.has(i)) return;
    if (a.do === 'failover' && sentinels && members.includes(a.target)) {
      out.set(i, { kind: 'renamed', target: sentinels.name, why: 'Sentinel fails over its group whichever member is named' });
    } else out.set(i, { kind: 'left-out', why: `the scenario format says "${message}"${hint ? ` (${hint})` : ''}` });
  });
  return out;
}

/** The header lines that say what the file could not hold exactly. */
function rewriteNotes(actions: readonly LearnerAction[], changed: ReadonlyMap<number, Rewrite>): string {
  const line = (i: number, r: Rewrite) => {
    const a = actions[i]!;
    return `#   ${duration(a.at)}: ${describeAction(a)}: ${r.kind === 'renamed' ? `written as ${a.do} ${r.target}, since ${r.why}` : `left out: ${r.why}`}\n`;
  };
  return changed.size ? `# Learner actions a scenario file cannot hold as they were done:\n${[...changed].map(([i, r]) => line(i, r)).join('')}` : '';
}

/**
 * The scenario plus the learner's actions as one YAML file an instructor can drop into
 * lessons/scenarios/: it parses back to the same scenario and replays the learner's run event
 * for event (`seed` is the run's seed when the learner changed it). Scripted steps and learner
 * actions are merged in time order, scripted first at equal times as the simulation runs them;
 * learner steps are marked with a comment.
 */
export function exportScenarioYaml(scenario: Scenario, actions: readonly LearnerAction[], fencing: boolean, seed: number = scenario.seed): string {
  const changed = rewrites(scenario, actions);
  const learnerStep = (a: LearnerAction, i: number) => {
    const r = changed.get(i);
    if (r?.kind === 'left-out') return [];
    return [{ at: a.at, step: actionToStep(r?.kind === 'renamed' && 'target' in a ? { ...a, target: r.target } : a), learner: true }];
  };
  const steps = [...scenario.script.map((s) => ({ at: s.at, step: scriptStepInput(s), learner: false })), ...actions.flatMap(learnerStep)].sort((x, y) => x.at - y.at);
  const doc = compact({
    id: scenario.id,
    title: scenario.title,
    seed,
    horizon: duration(scenario.horizon),
    redis: redisInput(scenario.redis),
    network: networkInput(scenario.network),
    leaseService: scenario.leaseService && compact({ id: scenario.leaseService.id, label: scenario.leaseService.label }),
    dbLock: scenario.dbLock && compact({ id: scenario.dbLock.id, label: scenario.dbLock.label, mode: scenario.dbLock.mode, idleTimeout: durationUnless(scenario.dbLock.idleTimeout) }),
    clients: scenario.clients.map(clientInput),
    resource: resourceInput(scenario.resource, fencing),
    script: steps.length ? steps.map((s) => s.step) : undefined,
    controls: scenario.controls,
    checks: scenario.checks.progressWithin === 30_000 ? undefined : { progressWithin: duration(scenario.checks.progressWithin) },
    expect: scenario.expect.length ? scenario.expect : undefined,
  });
  const file = new Document(doc);
  visit(file, {
    Map: (_, node, path) => {
      if (path.length > 1 && flatEnough(node)) node.flow = true;
    },
    Seq: (_, node) => {
      if (node.items.every(isScalar)) node.flow = true;
    },
  });
  const script = file.get('script');
  // A one-line step takes the note at its end; a longer one gets it on the line above.
  if (isSeq(script)) {
    steps.forEach((s, i) => {
      const item = script.items[i] as Node | undefined;
      if (!s.learner || !item) return;
      if (isMap(item) && item.flow) item.comment = ' by the learner';
      else item.commentBefore = ' by the learner';
    });
  }
  return `# Exported from the Lockstep sandbox.\n${rewriteNotes(actions, changed)}${file.toString({ lineWidth: 0 })}`;
}
