import { Document, isMap, isScalar, isSeq, visit, type Node, type YAMLMap } from 'yaml';
import { describeAction } from './describeAction';
import type { Action } from '../../actors/action';
import { checkRedis, isRedisAction, topologySpec } from '../schema/redisTopology';
import { actionInput, duration, scenarioInput, scriptActionInput } from './scenarioInput';
import type { Scenario } from '../schema/schema';

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
function rewrites(scenario: Scenario, actions: readonly Action[]): Map<number, Rewrite> {
  const out = new Map<number, Rewrite>();
  const asScript = actions.map((a) =>
    isRedisAction(a) && 'target' in a ? { do: a.do, target: a.target } : { do: a.do },
  );
  const sentinels = topologySpec(scenario.redis).sentinels;
  const members = sentinels
    ? scenario.redis.nodes
        .filter((n) => n.id === sentinels.primary || n.replicaOf === sentinels.primary)
        .map((n) => n.id)
    : [];
  checkRedis(scenario.redis, asScript, (path, message, hint) => {
    const i = path[0] === 'script' && typeof path[1] === 'number' ? path[1] : undefined;
    const a = i === undefined ? undefined : actions[i];
    if (i === undefined || a === undefined || out.has(i)) return;
    if (a.do === 'failover' && sentinels && members.includes(a.target)) {
      out.set(i, {
        kind: 'renamed',
        target: sentinels.name,
        why: 'Sentinel fails over its group whichever member is named',
      });
    } else out.set(i, { kind: 'left-out', why: `the scenario format says "${message}"${hint ? ` (${hint})` : ''}` });
  });
  return out;
}

/** The header lines that say what the file could not hold exactly. */
function rewriteNotes(actions: readonly Action[], changed: ReadonlyMap<number, Rewrite>): string {
  const line = (i: number, r: Rewrite) => {
    const a = actions[i]!;
    return `#   ${duration(a.at)}: ${describeAction(a)}: ${r.kind === 'renamed' ? `written as ${a.do} ${r.target}, since ${r.why}` : `left out: ${r.why}`}\n`;
  };
  return changed.size
    ? `# Learner actions a scenario file cannot hold as they were done:\n${[...changed].map(([i, r]) => line(i, r)).join('')}`
    : '';
}

/**
 * The scenario plus the learner's actions as one YAML file an instructor can drop into
 * lessons/scenarios/: it parses back to the same scenario and replays the learner's run event
 * for event (`seed` is the run's seed when the learner changed it). Script entries and learner
 * actions are merged in time order, scripted first at equal times as the simulation runs them;
 * learner actions are marked with a comment.
 */
export function exportScenarioYaml(
  scenario: Scenario,
  actions: readonly Action[],
  fencing: boolean,
  seed: number = scenario.seed,
): string {
  const changed = rewrites(scenario, actions);
  const learnerEntry = (a: Action, i: number) => {
    const r = changed.get(i);
    if (r?.kind === 'left-out') return [];
    return [
      {
        at: a.at,
        entry: actionInput(r?.kind === 'renamed' && 'target' in a ? { ...a, target: r.target } : a),
        learner: true,
      },
    ];
  };
  const entries = [
    ...scenario.script.map((s) => ({ at: s.at, entry: scriptActionInput(s), learner: false })),
    ...actions.flatMap(learnerEntry),
  ].sort((x, y) => x.at - y.at);
  const doc = scenarioInput(scenario, { seed, fencing, script: entries.map((s) => s.entry) });
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
  // A one-line entry takes the note at its end; a longer one gets it on the line above.
  if (isSeq(script)) {
    entries.forEach((s, i) => {
      const item = script.items[i] as Node | undefined;
      if (!s.learner || !item) return;
      if (isMap(item) && item.flow) item.comment = ' by the learner';
      else item.commentBefore = ' by the learner';
    });
  }
  return `# Exported from the Lockstep sandbox.\n${rewriteNotes(actions, changed)}${file.toString({ lineWidth: 0 })}`;
}
