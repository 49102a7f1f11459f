import { didYouMean, type Diagnostic, type SourceOrigin } from './diagnostic';
import { scenarioSchema, type Scenario } from './schema';
import { parseYamlSource, validateYaml, type YamlSource } from './yamlSource';

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Parses and checks one scenario written in YAML. Every problem comes back as a diagnostic
 * placed in the author's file, so a lesson's ```scenario block that starts on line 40 reports
 * its mistakes on lines 40 and after.
 *
 * @example parseScenario(text, { file: 'lessons/05-paused-barista.md', line: 41 })
 */
export function parseScenario(text: string, origin: SourceOrigin): ScenarioResult {
  const source = parseYamlSource(text, origin);
  const result = validateYaml(source, scenarioSchema, origin);
  if (!result.ok) return result;
  const diagnostics = crossCheck(result.value, source, origin);
  return diagnostics.length ? { ok: false, diagnostics } : { ok: true, scenario: result.value };
}

/** Checks that need the whole scenario: ids that must exist, times that must not go backwards. */
function crossCheck(scenario: Scenario, source: YamlSource, origin: SourceOrigin): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (path: (string | number)[], message: string, hint?: string) =>
    out.push({ file: origin.file, ...source.locate(path), message, ...(hint ? { hint } : {}) });

  const nodeIds = scenario.redis.nodes.map((n) => n.id);
  const actorPaths: [string, (string | number)[]][] = [
    ...scenario.redis.nodes.map((n, i): [string, (string | number)[]] => [n.id, ['redis', 'nodes', i, 'id']]),
    ...scenario.clients.map((c, i): [string, (string | number)[]] => [c.id, ['clients', i, 'id']]),
    [scenario.resource.id, ['resource', 'id']],
  ];
  const seen = new Set<string>();
  for (const [actorId, path] of actorPaths) {
    if (seen.has(actorId)) report(path, `duplicate id '${actorId}'`, 'every node, client and resource needs its own id');
    seen.add(actorId);
  }
  const actorIds = [...seen];

  scenario.clients.forEach((c, i) => {
    if (c.node !== undefined && !nodeIds.includes(c.node)) {
      report(['clients', i, 'node'], `unknown Redis node '${c.node}'`, hintFor(c.node, nodeIds));
    }
  });

  let previousAt = 0;
  scenario.script.forEach((s, i) => {
    if (!actorIds.includes(s.target)) report(['script', i, 'target'], `unknown target '${s.target}'`, hintFor(s.target, actorIds));
    if (s.at < previousAt) {
      report(['script', i, 'at'], `time goes backwards: ${s.at} ms comes after ${previousAt} ms`, 'list script steps in time order');
    }
    previousAt = Math.max(previousAt, s.at);
  });
  return out;
}

function hintFor(word: string, candidates: string[]): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean '${guess}'?` : `known ids: ${candidates.join(', ')}`;
}
