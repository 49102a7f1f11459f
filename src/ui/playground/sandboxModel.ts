import { stringify } from 'yaml';
import type { LatencyDist } from '../../net/faults';
import { CONTROLS, RECIPES, RESOURCE_KINDS, scenarioSchema, type RecipeName, type Scenario } from '../../scenario/schema';
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

/** A network latency back in the scenario's own notation. */
function latencyInput(l: LatencyDist): unknown {
  switch (l.dist) {
    case 'fixed':
      return duration(l.ms);
    case 'uniform':
      return { dist: 'uniform', min: duration(l.minMs), max: duration(l.maxMs) };
    case 'long-tail':
      return { dist: 'long-tail', min: duration(l.minMs), median: duration(l.medianMs), max: duration(l.maxMs) };
  }
}

/** A learner action as a script step, so an exported file replays what the learner did. */
export function actionToStep(a: LearnerAction): Record<string, unknown> {
  const at = duration(a.at);
  switch (a.do) {
    case 'pause':
      return { at, do: 'pause', target: a.target, ...(a.forMs === undefined ? {} : { for: duration(a.forMs) }) };
    case 'clock-jump':
      return { at, do: 'clock-jump', target: a.target, by: duration(a.byMs) };
    case 'partition':
      return { at, do: 'partition', groups: a.groups, ...(a.oneWay ? { oneWay: true } : {}) };
    case 'heal':
      return { at, do: 'heal' };
    case 'command':
      return { at, do: 'command', target: a.target, argv: a.argv };
    case 'network': {
      const { at: _at, do: _do, latency, ...rest } = a;
      return { at, do: 'network', ...rest, ...(latency ? { latency: latencyInput(latency) } : {}) };
    }
    default:
      return { ...(a as object), at };
  }
}

/**
 * The scenario plus the learner's actions as one YAML file an instructor can drop into
 * lessons/scenarios/. Scripted steps and learner actions are merged in time order.
 */
export function exportScenarioYaml(scenario: Scenario, actions: readonly LearnerAction[], fencing: boolean): string {
  const scripted = scenario.script.map((s) => ({ ...s, at: duration(s.at) }) as Record<string, unknown>);
  const steps = [...scenario.script.map((s, i) => ({ at: s.at, step: scripted[i]! })), ...actions.map((a) => ({ at: a.at, step: actionToStep(a) }))]
    .sort((x, y) => x.at - y.at)
    .map((x) => x.step);
  const doc = {
    id: scenario.id,
    title: scenario.title,
    seed: scenario.seed,
    horizon: duration(scenario.horizon),
    redis: scenario.redis,
    network: scenario.network,
    clients: scenario.clients.map((c) => ({ ...c, ttl: duration(c.ttl), work: c.work === 'forever' ? 'forever' : duration(c.work), startAt: duration(c.startAt), gap: duration(c.gap) })),
    resource: { ...scenario.resource, fencing },
    script: steps,
    controls: scenario.controls,
    checks: { progressWithin: duration(scenario.checks.progressWithin) },
    ...(scenario.expect.length ? { expect: scenario.expect } : {}),
  };
  return `# Exported from the Lockstep sandbox.\n${stringify(doc, { lineWidth: 0 })}`;
}
