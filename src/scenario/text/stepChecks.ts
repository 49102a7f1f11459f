import { didYouMean, type Report } from '../diagnostic';
import type { Scenario } from '../schema/schema';

/** Client keys that only steer a recipe: a step client does exactly what its steps say. */
const RECIPE_ONLY = [
  'work',
  'renew',
  'renewEvery',
  'onRenewFail',
  'reenter',
  'jobs',
  'gap',
  'tokens',
  'onUnavailable',
  'redlock',
  'nodes',
  'ordered',
] as const;

/**
 * Checks the clients that follow explicit step lists: each step's node and resource must
 * exist, and recipe settings (which would silently do nothing) are errors. `raw` is the YAML
 * as written, to tell a key the author gave from a default.
 */
export function checkStepClients(scenario: Scenario, raw: unknown, report: Report): void {
  const nodeIds = scenario.redis.nodes.map((n) => n.id);
  const resourceId = scenario.resource.id;
  scenario.clients.forEach((c, i) => {
    if (!c.steps) return;
    const written = rawClient(raw, i);
    for (const key of RECIPE_ONLY) {
      if (key in written)
        report(
          ['clients', i, key],
          `'${key}' does nothing on a client with steps`,
          'a step client does exactly what its steps say: write the behaviour as steps, or use a recipe',
        );
    }
    c.steps.forEach((step, j) => {
      if (step.do === 'redis' && step.node !== null && !nodeIds.includes(step.node)) {
        report(['clients', i, 'steps', j, 'node'], `unknown Redis node '${step.node}'`, hint(step.node, nodeIds));
      }
      if ((step.do === 'read' || step.do === 'write') && step.resource !== resourceId) {
        report(
          ['clients', i, 'steps', j, step.do],
          `unknown resource '${step.resource}'`,
          `the scenario's resource is '${resourceId}'`,
        );
      }
    });
  });
}

function rawClient(raw: unknown, i: number): Record<string, unknown> {
  const clients = (raw as { clients?: unknown } | null)?.clients;
  const c = Array.isArray(clients) ? clients[i] : undefined;
  return c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
}

function hint(word: string, candidates: string[]): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean '${guess}'?` : `known nodes: ${candidates.join(', ')}`;
}
