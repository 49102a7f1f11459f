import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FENCEABLE_KINDS } from '../../actors/resources/resource';
import { buildCatalog } from '../../lessons/catalog';
import { readLessonSources } from '../../lessons/sources';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { describeAction } from './describeAction';
import { formatDiagnostic } from '../diagnostic';
import { parseScenario } from './parse';
import { loadScriptEngine } from '../running/run';
import type { Scenario } from '../schema/schema';
import { Simulation } from '../running/simulation';
import { Hash64 } from '../../sim/hash';
import type { Trace } from '../../sim/trace';
import type { TraceEvent } from '../../sim/traceEvents';
import { exportScenarioYaml } from './toYaml';
import type { Action } from '../../actors/action';
import { simTime } from '../../sim/time';

/**
 * The sandbox's "Export scenario" must give an instructor a file that replays the learner's run
 * exactly. This runs every scenario the course ships, exports it (alone, and with learner
 * actions of each kind applied at fixed times, with the fencing switch flipped and another
 * seed), parses the file back and runs it again: the two traces must be the same event for
 * event. Synthetic scenarios add every setting no lesson uses yet.
 */

/** Every scenario the course ships: lessons/scenarios/*.yaml, and each scenario or compare side in a lesson. */
function shippedScenarios(): { name: string; scenario: Scenario }[] {
  const out: { name: string; scenario: Scenario }[] = [];
  const dir = 'lessons/scenarios';
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const parsed = parseScenario(readFileSync(join(dir, file), 'utf8'), { file: join(dir, file), line: 1 });
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    out.push({ name: join(dir, file), scenario: parsed.scenario });
  }
  const catalog = buildCatalog(readLessonSources('lessons'));
  if (catalog.diagnostics.length) throw new Error(catalog.diagnostics.map(formatDiagnostic).join('\n'));
  for (const lesson of catalog.lessons) {
    for (const block of lesson.blocks) {
      if (block.kind === 'scenario')
        out.push({ name: `${lesson.file}:${block.line} (${block.scenario.id})`, scenario: block.scenario });
      if (block.kind === 'compare') {
        for (const side of [block.left, block.right])
          out.push({
            name: `${lesson.file}:${block.line} compare '${side.label}' (${side.scenario.id})`,
            scenario: side.scenario,
          });
      }
    }
  }
  return out;
}

/**
 * Settings no shipped scenario uses yet, each set away from its default, so the export is
 * shown to keep them as well (a lesson may use them tomorrow).
 */
const EVERY_KNOB = `
id: every-knob
title: Every knob turned
seed: 11
horizon: 45s
redis:
  nodes:
    - { id: p1, persistence: aof-always, minReplicasToWrite: 1, minReplicasMaxLag: 3s, maxmemory: 3000000, maxmemoryPolicy: allkeys-lru }
    - { id: p1r, replicaOf: p1, priority: 5, lag: 120ms }
    - { id: p1r2, role: replica, replicaOf: p1, priority: 0, maxmemory: 2mb }
    - { id: m2, label: Master two }
    - { id: m3 }
  sentinels: { ids: [s-a, s-b, s-c], quorum: 2, downAfter: 1500ms, failoverTimeout: 20s, name: shop, monitor: p1 }
  wait: { replicas: 1, timeout: 80ms }
  cacheLoad: { target: m2, every: 250ms, valueSize: 2000, ttl: 90s, startAt: 1s, writes: 40, reads: true }
network:
  latency: { dist: long-tail, min: 1ms, max: 400ms }
  loss: 0.01
  duplicate: 0.02
  reorder: 0.05
  reorderDelay: 30ms
  links:
    - { from: A, to: p1, latency: 7ms, loss: 0.2 }
    - { from: p1, to: p1r, latency: { min: 2ms, max: 9ms } }
  partitions:
    - { groups: [[C], [m3]], oneWay: true }
clients:
  - { id: A, label: Barista A, recipe: watchdog, key: espresso-lock, ttl: 3s, work: 8s, retry: { policy: exponential, delay: 50ms, maxDelay: 2s, jitter: 10ms, attempts: 6 }, timeout: 400ms, renewEvery: 900ms, onRenewFail: retry, driftPpm: 2500, tokens: true }
  - { id: B, recipe: reentrant, keys: [b-lock, a-lock], ordered: true, node: p1, ttl: 2s, work: forever, startAt: 1200ms, retry: fixed, reenter: 2, jobs: 3, onUnavailable: proceed, renew: false }
  - { id: C, recipe: redlock, nodes: [p1, m2, m3], ttl: 5s, work: 1500ms, redlock: { instanceTimeout: 20ms, driftFactor: 0.02 }, startAt: 2s }
  - { id: D, recipe: get-then-set, ttl: 4s, gap: 300ms, startAt: 3s, retry: none }
resource: { id: till, label: Till, kind: payment, idempotencyKeys: true, order: order-7 }
script:
  - { at: 2s, do: network, latency: { dist: long-tail, min: 2ms, max: 1s }, reorder: 0.1 }
  - { at: 2500ms, do: network, from: B, to: p1, loss: 0.5 }
  - { at: 3s, do: failover, target: shop }
  - { at: 4s, do: power-loss, target: m2 }
  - { at: 4500ms, do: clock-jump, target: C, by: -2s }
  - { at: 5s, do: pause, target: A }
  - { at: 6s, do: resume, target: A }
controls: [pause, network]
checks: { progressWithin: 12s }
expect: { invariant: no-double-charge, outcome: holds }
`;

/** A step-list client using every step option, words YAML would misread unquoted, and a cluster. */
const EVERY_STEP = `
id: every-step
title: Every step option
redis:
  cluster: true
  nodes:
    - { id: r1, slots: 0-8000 }
    - { id: r2, slots: '8001-16000, 16383' }
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, '{ttl}'], ifBusy: skip }
      - { read: shelf }
      - { redis: [EVAL, "return redis.call('PEXPIRE', KEYS[1], ARGV[1])", 1, lock, 9000], as: renew, node: r2 }
      - { wait: 250ms }
      - { redis: [RPUSH, note, '007', 'true', '1.50', '-0', 'null', '', '{token}', 'two words', 12] }
      - { write: shelf }
      - { redis: [DEL, lock], as: command }
  - id: B
    ttl: 4s
    startAt: 100ms
    timeout: 2s
    retry: { policy: fixed, delay: 75ms }
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 4000], ifBusy: stop }
      - { write: shelf }
resource: { id: shelf, kind: inventory, stock: 3 }
`;

/** A replica failed over by hand (no Sentinel), which the learner can fail back in the player. */
const HAND_FAILOVER = `
id: hand-failover
title: Failover by hand
redis:
  nodes:
    - { id: primary }
    - { id: replica, replicaOf: primary, lag: 40ms }
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 3s }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 3s, startAt: 2s, timeout: 500ms }
resource: { id: espresso }
script:
  - { at: 1s, do: crash, target: primary }
  - { at: 3s, do: restart, target: primary }
`;

function syntheticScenarios(): { name: string; scenario: Scenario }[] {
  return [EVERY_KNOB, EVERY_STEP, HAND_FAILOVER].map((text) => {
    const parsed = parseScenario(text, { file: 'synthetic.yaml', line: 1 });
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    return { name: `synthetic ${parsed.scenario.id}`, scenario: parsed.scenario };
  });
}

const first = <T>(items: readonly T[], what: string): T => {
  if (items[0] === undefined) throw new Error(`no ${what}`);
  return items[0];
};

/** Learner actions of every kind, aimed at actors each scenario has. */
function actionSets(s: Scenario): { name: string; actions: Action[] }[] {
  const client = first(s.clients, 'client').id;
  const node = first(s.redis.nodes, 'node').id;
  const replicated = s.redis.nodes.find((n) => n.replicaOf !== undefined)?.replicaOf;
  return [
    { name: 'no learner actions', actions: [] },
    {
      name: 'pause a client for 3s, then pause and resume it by hand',
      actions: [
        { at: simTime(1000), do: 'pause', target: client, forMs: 3000 },
        { at: simTime(6000), do: 'pause', target: client },
        { at: simTime(7500), do: 'resume', target: client },
      ],
    },
    {
      name: 'partition a client from Redis (one way too), then heal',
      actions: [
        { at: simTime(1500), do: 'partition', groups: [[client], [node]] },
        { at: simTime(2500), do: 'partition', groups: [[node], [client]], oneWay: true },
        { at: simTime(4000), do: 'heal' },
      ],
    },
    {
      name: 'crash and restart a Redis node, with a console command between',
      actions: [
        { at: simTime(2000), do: 'crash', target: node },
        { at: simTime(3000), do: 'command', target: node, argv: ['SET', 'note', 'two words'] },
        { at: simTime(5000), do: 'restart', target: node },
        { at: simTime(5000), do: 'command', target: node, argv: ['SET', 'lock', '42', 'PX', '1500'] },
      ],
    },
    {
      name: 'clock jumps forward on Redis and backward on a client',
      actions: [
        { at: simTime(1000), do: 'clock-jump', target: node, byMs: 12_000 },
        { at: simTime(1250), do: 'clock-jump', target: client, byMs: -750 },
      ],
    },
    {
      name: 'network weather on every link, then on one link',
      actions: [
        { at: simTime(500), do: 'network', latency: { dist: 'uniform', minMs: 2, maxMs: 40 }, loss: 0.1 },
        {
          at: simTime(900),
          do: 'network',
          from: client,
          to: node,
          latency: { dist: 'long-tail', minMs: 1, medianMs: 5, maxMs: 1500 },
          duplicate: 0.2,
          reorder: 0.3,
        },
        { at: simTime(3000), do: 'network', latency: { dist: 'fixed', ms: 1 }, loss: 0 },
      ],
    },
    {
      name: replicated ? 'fail over, then power loss on the old primary' : 'power loss on a Redis node, then a restart',
      actions: replicated
        ? [
            { at: simTime(1800), do: 'failover', target: replicated },
            { at: simTime(2600), do: 'power-loss', target: replicated },
            { at: simTime(9000), do: 'restart', target: replicated },
          ]
        : [
            { at: simTime(1800), do: 'power-loss', target: node },
            { at: simTime(4000), do: 'restart', target: node },
          ],
    },
  ];
}

/**
 * The trace's digest (as Trace.hash computes it) with each action's source read as 'script':
 * an exported learner action replays as a scripted step, and that label is the only thing the
 * file cannot say. With no learner actions the real trace hashes are compared as well.
 * `skip` leaves out events a comparison must not count.
 */
function replayDigest(trace: Trace, skip: (e: TraceEvent) => boolean = () => false): string {
  const h = new Hash64();
  for (const e of trace) {
    if (skip(e)) continue;
    const data = e.kind === 'action.apply' ? { ...e.data, source: 'script' } : e.data;
    h.update(`${e.at}|${e.kind}|${e.actor}|${JSON.stringify(data)}\n`);
  }
  return h.hex();
}

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

const scenarios = [...shippedScenarios(), ...syntheticScenarios()];

/**
 * Failovers and power losses the player offers but a scenario file cannot express as done (the
 * format allows a failover only of a primary that has replicas in the file's own setup, a power
 * loss only of a Redis node): on a lone primary a failover does nothing but say why (failover.abort);
 * under Sentinel, failing over the promoted replica is the group's failover. Only without Sentinel
 * does failing back over the promoted replica change the run in a way no file can say.
 */
function awkwardActions(s: Scenario): { actions: Action[]; replays: boolean } {
  const primary = s.redis.nodes.find((n) => n.replicaOf !== undefined)?.replicaOf;
  const replica = s.redis.nodes.find((n) => n.replicaOf === primary && n.priority > 0);
  if (primary === undefined || !replica)
    return { actions: [{ at: simTime(1700), do: 'failover', target: first(s.redis.nodes, 'node').id }], replays: true };
  const actions: Action[] = [
    { at: simTime(1700), do: 'failover', target: primary },
    { at: simTime(6000), do: 'failover', target: replica.id },
  ];
  return { actions, replays: s.redis.sentinels !== undefined };
}

describe('learner failovers and power losses a scenario file cannot hold as done', () => {
  for (const { name, scenario } of scenarios) {
    const { actions, replays } = awkwardActions(scenario);
    it(`${name}: ${actions.map((a) => describeAction(a)).join(', ')}`, () => {
      const yaml = exportScenarioYaml(scenario, actions, scenario.resource.fencing);
      const parsed = parseScenario(yaml, { file: `${scenario.id}.yaml`, line: 1 });
      expect(
        parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic),
        `${name}: the export does not parse back:\n${yaml}`,
      ).toEqual([]);
      if (!parsed.ok) return;
      // The file says which actions it could not hold as they were done.
      const header = yaml.split('\n').filter((l) => l.startsWith('#   '));
      expect(header.length, yaml).toBeGreaterThan(0);
      for (const l of header)
        expect(
          actions.some((a) => l.includes(describeAction(a))),
          l,
        ).toBe(true);
      if (!replays) return;
      const live = new Simulation(scenario, { actions }, scripts).run();
      const replay = new Simulation(parsed.scenario, {}, scripts).run();
      // The learner's own failover and power-loss lines are left out or name another target.
      // A run ends when nothing is left to do: a left-out action that came after everything
      // else kept the live run going until its time, so the replay may end sooner, never later.
      const times = actions.map((a) => a.at);
      const own = (e: TraceEvent) =>
        e.kind === 'run.end' ||
        (times.includes(e.at) &&
          ((e.kind === 'action.apply' && (e.data.action === 'failover' || e.data.action === 'power-loss')) ||
            e.kind === 'failover.abort'));
      expect(replayDigest(replay.sim.trace, own), `${name}\n${yaml}`).toBe(replayDigest(live.sim.trace, own));
      const [liveEnd, replayEnd] = [live, replay].map((run) => run.sim.trace.get(run.sim.trace.length - 1));
      expect(
        replayEnd!.kind === 'run.end' && liveEnd!.kind === 'run.end' && replayEnd!.data.reason === liveEnd!.data.reason,
      ).toBe(true);
      expect(replayEnd!.at).toBeLessThanOrEqual(liveEnd!.at);
    });
  }
});

describe('exporting a sandbox run replays it exactly', () => {
  it('covers every shipped scenario', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(60);
  });

  for (const { name, scenario } of scenarios) {
    const own = { seed: scenario.seed, fencing: scenario.resource.fencing };
    const cases = [
      ...actionSets(scenario).map((set) => ({ ...set, ...own })),
      // The learner may flip the fencing switch and pick another seed in the player.
      {
        name: 'fencing flipped and another seed',
        actions: [],
        seed: scenario.seed + 1,
        fencing: !scenario.resource.fencing,
      },
    ];
    for (const { name: what, actions, seed, fencing } of cases) {
      it(`${name}: ${what}`, () => {
        const live = new Simulation(scenario, { seed, actions, fencing }, scripts).run();
        const yaml = exportScenarioYaml(scenario, actions, fencing, seed);
        const parsed = parseScenario(yaml, { file: `${scenario.id}.yaml`, line: 1 });
        const problems = parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic);
        expect(problems, `${name}: the export does not parse back:\n${yaml}`).toEqual([]);
        if (!parsed.ok) return;
        const replay = new Simulation(parsed.scenario, {}, scripts).run();
        const where = `${name} (${what}) replays differently from its export:\n${yaml}`;
        expect(replay.sim.trace.length, where).toBe(live.sim.trace.length);
        expect(replayDigest(replay.sim.trace), where).toBe(replayDigest(live.sim.trace));
        if (actions.length === 0) {
          expect(replay.sim.trace.hash(), where).toBe(live.sim.trace.hash());
          // Settings this run never exercised must survive too: the file is the same scenario.
          const fenceable = FENCEABLE_KINDS.includes(scenario.resource.kind);
          expect(parsed.scenario, where).toEqual({
            ...scenario,
            seed,
            resource: { ...scenario.resource, fencing: fenceable && fencing },
          });
        }
        expect(replay.verdicts(), where).toEqual(live.verdicts());
      });
    }
  }
});
