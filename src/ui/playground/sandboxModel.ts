import {
  CONTROLS,
  RECIPES,
  RESOURCE_KINDS,
  scenarioSchema,
  type RecipeName,
  type Scenario,
} from '../../scenario/schema/schema';

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
    clients: spec.clients.map((c) => ({
      id: c.id,
      label: c.label || c.id,
      recipe: c.recipe,
      ttl: ms(c.ttlS),
      work: ms(c.workS),
      startAt: ms(c.startAtS),
    })),
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
