import { FENCEABLE_KINDS } from '../../actors/resources/resource';
import { didYouMean, type Diagnostic, type Path, type SourceOrigin } from '../diagnostic';
import { scenarioSchema, type Scenario } from '../schema/schema';
import { actorPaths } from '../schema/actorIds';
import { checkRedis, isRedisAction } from '../schema/redisTopology';
import { checkServices } from '../schema/services';
import { checkStepCommands } from './stepCommands';
import { luaSyntaxDiagnostics, type LuaCompiler } from './luaSyntax';
import { checkStepClients } from './stepChecks';
import { validateYaml } from './schemaIssues';
import { parseYamlSource, type YamlSource } from './yamlSource';

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; diagnostics: Diagnostic[] };

export interface ParseScenarioOptions {
  /**
   * Compiles the scenario's Lua scripts (EVAL, SCRIPT LOAD) without running them, so a script
   * that cannot compile is a problem at its own line like any YAML mistake. The Lua VM loads
   * asynchronously, so it is passed in: lessons:check, the build, the instructor preview and the
   * workbench pass one; without one, scripts are checked only when they run.
   */
  compileLua?: LuaCompiler;
}

/**
 * Parses and checks one scenario written in YAML. Every problem comes back as a diagnostic
 * placed in the author's file, so a lesson's ```scenario block that starts on line 40 reports
 * its mistakes on lines 40 and after.
 *
 * @example parseScenario(text, { file: 'lessons/05-paused-barista.md', line: 41 })
 */
export function parseScenario(text: string, origin: SourceOrigin, options: ParseScenarioOptions = {}): ScenarioResult {
  const source = parseYamlSource(text, origin);
  const result = validateYaml(source, scenarioSchema, origin);
  // A script's syntax is reported even when the YAML around it has problems of its own.
  const lua = options.compileLua ? luaSyntaxDiagnostics(text, options.compileLua, origin) : [];
  const found = result.ok ? crossCheck(result.value, source, origin) : result.diagnostics;
  const diagnostics = lua.length ? [...found, ...lua].sort((a, b) => a.line - b.line || a.col - b.col) : found;
  return diagnostics.length || !result.ok ? { ok: false, diagnostics } : { ok: true, scenario: result.value };
}

/**
 * Checks a scenario that arrived as a plain value rather than as text (a share link carries it as
 * JSON, in the notation `scenarioInput` writes): the same schema and cross-checks as a file, each
 * problem naming its field (`path`) since there are no lines to point at.
 */
export function checkScenarioValue(value: unknown): ScenarioResult {
  const origin = { file: 'scenario', line: 1 };
  const source: YamlSource = { value, diagnostics: [], locate: () => ({ line: 1, col: 1 }) };
  const result = validateYaml(source, scenarioSchema, origin);
  if (!result.ok) return result;
  const diagnostics = crossCheck(result.value, source, origin);
  return diagnostics.length ? { ok: false, diagnostics } : { ok: true, scenario: result.value };
}

/** Checks that need the whole scenario: ids that must exist, times that must not go backwards. */
function crossCheck(scenario: Scenario, source: YamlSource, origin: SourceOrigin): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (path: Path, message: string, hint?: string) =>
    out.push({ file: origin.file, ...source.locate(path), path, message, ...(hint ? { hint } : {}) });

  const nodeIds = scenario.redis.nodes.map((n) => n.id);
  const seen = new Set<string>();
  for (const [actorId, path] of actorPaths(scenario)) {
    if (seen.has(actorId))
      report(path, `duplicate id '${actorId}'`, 'every node, client and resource needs its own id');
    seen.add(actorId);
  }
  const actorIds = [...seen];
  const checkActor = (actorId: string, path: Path) => {
    if (!actorIds.includes(actorId)) report(path, `unknown target '${actorId}'`, hintFor(actorId, actorIds));
  };

  scenario.clients.forEach((c, i) => {
    if (c.node !== undefined && !nodeIds.includes(c.node))
      report(['clients', i, 'node'], `unknown Redis node '${c.node}'`, hintFor(c.node, nodeIds));
    c.nodes?.forEach((n, j) => {
      if (!nodeIds.includes(n)) report(['clients', i, 'nodes', j], `unknown Redis node '${n}'`, hintFor(n, nodeIds));
    });
    if (c.key !== undefined && c.keys !== undefined)
      report(['clients', i, 'keys'], 'give either key or keys, not both', 'keys: [x, y] takes several locks in order');
    // Step clients are checked by checkStepClients: recipe settings mean nothing to them.
    if (c.steps) return;
    if (c.recipe !== 'redlock' && c.nodes !== undefined && c.nodes.length > 1) {
      report(
        ['clients', i, 'nodes'],
        `recipe '${c.recipe}' talks to one node, not ${c.nodes.length}`,
        'use node: <id>, or recipe: redlock for several masters',
      );
    }
    if (c.redlock !== undefined && c.recipe !== 'redlock')
      report(
        ['clients', i, 'redlock'],
        `redlock settings on a '${c.recipe}' client`,
        'set recipe: redlock, or remove redlock:',
      );
    if (c.renewEvery !== undefined && c.renewEvery > c.ttl) {
      report(
        ['clients', i, 'renewEvery'],
        `the watchdog renews every ${c.renewEvery} ms, after the ${c.ttl} ms lease has already run out`,
        'renew well before the TTL, e.g. every ttl/3',
      );
    }
  });

  const r = scenario.resource;
  if (r.fencing && !FENCEABLE_KINDS.includes(r.kind)) {
    report(
      ['resource', 'fencing'],
      `a '${r.kind}' resource cannot check fencing tokens`,
      `fencing needs a resource that compares tokens: kind ${FENCEABLE_KINDS.join(' or ')}${r.kind === 'payment' ? '; for payments use idempotencyKeys: true' : r.kind === 'dispatch' ? '; for dispatch use conditional: true' : ''}`,
    );
  }
  if (r.fenceCompare === 'strict' && !FENCEABLE_KINDS.includes(r.kind)) {
    report(
      ['resource', 'fenceCompare'],
      `a '${r.kind}' resource does not compare fencing tokens`,
      `fenceCompare applies to kind ${FENCEABLE_KINDS.join(' or ')}; remove it`,
    );
  }
  if (r.idempotencyKeys && r.kind !== 'payment')
    report(['resource', 'idempotencyKeys'], 'idempotency keys belong to a payment provider', 'set kind: payment');
  if (r.conditional && r.kind !== 'dispatch')
    report(['resource', 'conditional'], 'conditional assignment belongs to a dispatch service', 'set kind: dispatch');

  const checkLatency = (l: Scenario['network']['latency'], path: Path) => {
    if (l === undefined || typeof l === 'number') return;
    if (l.min > l.max)
      report(
        [...path, 'min'],
        `the shortest delay (min ${l.min} ms) is longer than the longest (max ${l.max} ms)`,
        'swap min and max',
      );
    else if (l.median !== undefined && (l.median < l.min || l.median > l.max))
      report([...path, 'median'], `the median delay (${l.median} ms) is outside min..max (${l.min}..${l.max} ms)`);
  };
  checkLatency(scenario.network.latency, ['network', 'latency']);
  scenario.network.links.forEach((l, i) => checkLatency(l.latency, ['network', 'links', i, 'latency']));
  scenario.script.forEach((s, i) => {
    if (s.do === 'network') checkLatency(s.latency, ['script', i, 'latency']);
  });

  scenario.network.links.forEach((l, i) => {
    checkActor(l.from, ['network', 'links', i, 'from']);
    checkActor(l.to, ['network', 'links', i, 'to']);
  });
  scenario.network.partitions.forEach((p, i) =>
    p.groups.forEach((g, j) => g.forEach((a, k) => checkActor(a, ['network', 'partitions', i, 'groups', j, k]))),
  );

  let previousAt = 0;
  scenario.script.forEach((s, i) => {
    if ('target' in s && !isRedisAction(s)) checkActor(s.target, ['script', i, 'target']);
    if (s.do === 'partition')
      s.groups.forEach((g, j) => g.forEach((a, k) => checkActor(a, ['script', i, 'groups', j, k])));
    if (s.do === 'network') {
      if (s.from !== undefined) checkActor(s.from, ['script', i, 'from']);
      if (s.to !== undefined) checkActor(s.to, ['script', i, 'to']);
      if ((s.from === undefined) !== (s.to === undefined))
        report(['script', i], 'give both from and to (one link), or neither (every link)');
    }
    if (s.at < previousAt) {
      report(
        ['script', i, 'at'],
        `time goes backwards: ${s.at} ms comes after ${previousAt} ms`,
        'list script steps in time order',
      );
    }
    previousAt = Math.max(previousAt, s.at);
  });
  checkRedis(scenario.redis, scenario.script, report);
  checkStepClients(scenario, source.value, report);
  checkStepCommands(scenario, report);
  checkServices(scenario, report);
  return out;
}

function hintFor(word: string, candidates: string[]): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean '${guess}'?` : `known ids: ${candidates.join(', ')}`;
}
