import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFieldProblem } from '../../scenario/diagnostic';
import { checkScenarioValue } from '../../scenario/text/parse';
import { RECIPES, RESOURCE_KINDS, type Scenario } from '../../scenario/schema/schema';
import { sandboxScenario, type SandboxSpec } from '../playground/sandboxModel';
import { decodeRun, encodeRun } from './shareLink';
import type { Action } from '../../actors/action';
import { simTime } from '../../sim/time';

/**
 * A sandbox link must open as the scenario it was made from, whatever the sandbox made: a form
 * run, or any scenario file the learner opened (step-list clients, replicas, Sentinel, services,
 * network weather, scripted faults). Each generated scenario goes through the scenario checks as
 * a file would, then through a link and back.
 */

const durationArb = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }).map((ms) => `${ms}ms`),
  fc.integer({ min: 1, max: 30 }).map((s) => `${s}s`),
);
const word = fc.oneof(
  fc.constantFrom(
    'lock',
    '{value}',
    '{token}',
    '{ttl}',
    'NX',
    'PX',
    'two words',
    '007',
    'true',
    'null',
    '',
    '-0',
    '1.50',
  ),
  fc.integer({ min: -5, max: 100_000 }),
);

const formSpec: fc.Arbitrary<SandboxSpec> = fc.record({
  title: fc.string({ maxLength: 30 }),
  seed: fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  nodes: fc.integer({ min: 1, max: 7 }),
  clients: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom('A', 'B', 'C', 'D'),
      label: fc.string({ maxLength: 12 }),
      recipe: fc.constantFrom(...RECIPES.filter((r) => r !== 'lease-service' && r !== 'db-lock')),
      ttlS: fc.integer({ min: 1, max: 30 }),
      workS: fc.integer({ min: 0, max: 30 }),
      startAtS: fc.integer({ min: 0, max: 10 }),
    }),
    { minLength: 1, maxLength: 4, selector: (c) => c.id },
  ),
  resourceKind: fc.constantFrom(...RESOURCE_KINDS),
  fencing: fc.boolean(),
});

/** Commands Redis accepts (lessons:check runs each one), with words YAML could misread. */
const commandArb = fc.oneof(
  fc
    .tuple(word, word, fc.boolean(), fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }))
    .map(([k, v, nx, px]) => ['SET', k, v, ...(nx ? ['NX'] : []), ...(px === undefined ? [] : ['PX', px])]),
  fc.tuple(fc.constantFrom('GET', 'DEL', 'INCR'), word).map(([name, k]) => [name, k]),
  fc.tuple(word, fc.array(word, { minLength: 1, maxLength: 4 })).map(([k, values]) => ['RPUSH', k, ...values]),
  fc.tuple(word, fc.integer({ min: 1, max: 100_000 })).map(([k, ms]) => ['PEXPIRE', k, ms]),
);

const stepArb = (nodes: string[]) =>
  fc.oneof(
    fc.record(
      {
        redis: commandArb,
        node: fc.constantFrom(...nodes),
        as: fc.constantFrom('acquire', 'release', 'renew', 'command'),
        ifBusy: fc.constantFrom('retry', 'skip', 'stop'),
      },
      { requiredKeys: ['redis'] },
    ),
    fc.record({ wait: durationArb }),
    fc.constant({ read: 'res' }),
    fc.constant({ write: 'res' }),
  );

/** A scenario file as a learner could open it in the sandbox. */
const fileScenario = fc
  .record({
    nodeCount: fc.integer({ min: 1, max: 3 }),
    replica: fc.boolean(),
    sentinel: fc.boolean(),
    latency: fc.option(
      fc.oneof(
        durationArb,
        fc.record({ min: fc.constantFrom('1ms', '2ms'), max: fc.constantFrom('3ms', '40ms') }),
        fc.constant({ dist: 'long-tail', min: '1ms', max: '2s' }),
      ),
      { nil: undefined },
    ),
    loss: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    service: fc.constantFrom('none', 'lease', 'db'),
    clientKinds: fc.array(fc.constantFrom('recipe', 'steps'), { minLength: 1, maxLength: 3 }),
    seed: fc.integer({ min: 0, max: 1000 }),
    kind: fc.constantFrom(...RESOURCE_KINDS),
    script: fc.array(fc.record({ at: durationArb, do: fc.constantFrom('pause', 'crash', 'restart', 'clock-jump') }), {
      maxLength: 3,
    }),
    horizon: fc.option(durationArb, { nil: undefined }),
    progressWithin: fc.option(durationArb, { nil: undefined }),
    persistence: fc.constantFrom('none', 'aof-always', 'aof-everysec'),
    link: fc.boolean(),
    partition: fc.boolean(),
    expect: fc.array(
      fc.record({ invariant: fc.constantFrom('all', 'single-writer', 'progress'), outcome: fc.constant('holds') }),
      { maxLength: 2 },
    ),
    retry: fc.option(
      fc.record({
        policy: fc.constantFrom('fixed', 'exponential'),
        delay: durationArb,
        attempts: fc.integer({ min: 1, max: 9 }),
      }),
      { nil: undefined },
    ),
  })
  .chain((shape) => {
    const nodes = Array.from({ length: shape.nodeCount }, (_, i) => `r${i + 1}`);
    const redisNodes: Record<string, unknown>[] = nodes.map((id) => ({ id, persistence: shape.persistence }));
    if (shape.replica) redisNodes.push({ id: 'rep', replicaOf: 'r1', lag: '20ms' });
    const recipes = RECIPES.filter((r) =>
      r === 'lease-service' ? shape.service === 'lease' : r === 'db-lock' ? shape.service === 'db' : true,
    );
    const client = (kind: string, i: number) =>
      kind === 'steps'
        ? fc.record({
            id: fc.constant(`C${i}`),
            steps: fc.array(stepArb(nodes), { minLength: 1, maxLength: 5 }),
            startAt: fc.option(durationArb, { nil: undefined }),
          })
        : fc.record({
            id: fc.constant(`C${i}`),
            recipe: fc.constantFrom(...recipes),
            ttl: durationArb,
            work: durationArb,
            retry: fc.option(
              fc.oneof(fc.constantFrom('none', 'fixed', 'exponential'), fc.constant(shape.retry ?? 'none')),
              { nil: undefined },
            ),
          });
    return fc.tuple(fc.tuple(...shape.clientKinds.map(client)), fc.constant(shape)).map(([clients, s]) => ({
      id: 'generated',
      title: 'Generated',
      seed: s.seed,
      redis: { nodes: redisNodes, ...(s.replica && s.sentinel ? { sentinels: { count: 3, downAfter: '1s' } } : {}) },
      ...(s.horizon !== undefined ? { horizon: s.horizon } : {}),
      ...(s.progressWithin !== undefined ? { checks: { progressWithin: s.progressWithin } } : {}),
      network: {
        ...(s.latency !== undefined ? { latency: s.latency } : {}),
        ...(s.loss !== undefined ? { loss: s.loss } : {}),
        ...(s.link ? { links: [{ from: 'C0', to: 'r1', latency: '7ms', duplicate: 0.5 }] } : {}),
        ...(s.partition ? { partitions: [{ groups: [['C0'], ['r1']], oneWay: true }] } : {}),
      },
      ...(s.expect.length ? { expect: s.expect } : {}),
      ...(s.service === 'lease'
        ? { leaseService: { id: 'etcd' } }
        : s.service === 'db'
          ? { dbLock: { id: 'db', mode: 'for-update' } }
          : {}),
      clients: clients.map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined))),
      resource: { id: 'res', kind: s.kind },
      script: s.script
        .map((st) => ({ at: st.at, do: st.do, target: 'C0', ...(st.do === 'clock-jump' ? { by: '-2s' } : {}) }))
        .sort(
          (a, b) =>
            parseInt(a.at) * (a.at.endsWith('ms') ? 1 : 1000) - parseInt(b.at) * (b.at.endsWith('ms') ? 1 : 1000),
        ),
      controls: ['pause', 'crash'],
    }));
  });

function roundTrip(scenario: Scenario, actions: Action[] = []) {
  const decoded = decodeRun(
    encodeRun({
      scenarioId: scenario.id,
      config: { seed: scenario.seed, fencing: scenario.resource.fencing, actions },
      scenario,
    }),
  );
  expect(decoded.ok ? decoded.run.scenario : decoded.message).toEqual(scenario);
}

describe('share links of sandbox runs', () => {
  it('round-trip every scenario the sandbox form can build', () => {
    fc.assert(
      fc.property(formSpec, (spec) => {
        const built = sandboxScenario(spec);
        fc.pre(built.ok);
        if (built.ok)
          roundTrip(built.scenario, [
            { at: simTime(1000), do: 'pause', target: built.scenario.clients[0]!.id, forMs: 2000 },
          ]);
      }),
      { numRuns: 150 },
    );
  });

  it('round-trip every scenario file the sandbox can open, step-list clients included', () => {
    let checked = 0;
    fc.assert(
      fc.property(fileScenario, (input) => {
        const parsed = checkScenarioValue(input);
        if (!parsed.ok) {
          // The generator only makes sensible files; say which one was not, so it can be fixed.
          throw new Error(
            `generated an invalid scenario: ${parsed.diagnostics.map(formatFieldProblem).join('; ')}\n${JSON.stringify(input)}`,
          );
        }
        checked++;
        roundTrip(parsed.scenario);
      }),
      { numRuns: 300 },
    );
    expect(checked).toBe(300);
  });
});

describe('share links reject what no Lockstep made', () => {
  const built = sandboxScenario({
    title: 'x',
    seed: 1,
    nodes: 1,
    clients: [{ id: 'A', label: 'A', recipe: 'lease-with-token', ttlS: 10, workS: 2, startAtS: 0 }],
    resourceKind: 'store',
    fencing: false,
  });
  if (!built.ok) throw new Error(built.message);
  const scenario = built.scenario;
  const link = (actions: unknown[], sc: unknown = scenario) => {
    const body = { v: 1, s: scenario.id, seed: 1, f: false, a: actions, ...(sc ? { sc } : {}) };
    return Buffer.from(JSON.stringify(body)).toString('base64url');
  };

  it('an action aimed at an actor the scenario does not have, naming the field and the actors it has', () => {
    const decoded = decodeRun(
      encodeRun({
        scenarioId: scenario.id,
        config: { seed: 1, fencing: false, actions: [{ at: simTime(10), do: 'pause', target: 'Z' }] },
        scenario,
      }),
    );
    expect(decoded).toMatchObject({ ok: false, problem: 'damaged' });
    expect(!decoded.ok && decoded.message).toMatch(
      /actions\[0\]\.target: 'Z' is not an actor of scenario 'sandbox' \(it has r1, A, store\)/,
    );
  });

  it('a lesson link whose action names an unknown actor, checked against the page scenario', () => {
    const text = link([{ at: simTime(10), do: 'command', target: 'A', argv: ['GET', 'x'] }], null);
    expect(decodeRun(text).ok).toBe(true);
    const decoded = decodeRun(text, scenario);
    expect(!decoded.ok && decoded.message).toMatch(/actions\[0\]\.target: 'A' is not a Redis node/);
  });

  it('out-of-range values, naming the field', () => {
    const jump = decodeRun(link([{ at: simTime(10), do: 'clock-jump', target: 'A', byMs: -9e15 }]));
    expect(!jump.ok && jump.message).toMatch(/actions\[0\]\.byMs: must be at least -86400000 ms/);
    const late = decodeRun(link([{ at: 1e12, do: 'heal' }]));
    expect(!late.ok && late.message).toMatch(/actions\[0\]\.at: must be at most 86400000 ms/);
    const range = decodeRun(
      link([{ at: simTime(1), do: 'network', latency: { dist: 'uniform', minMs: 50, maxMs: 5 } }]),
    );
    expect(!range.ok && range.message).toMatch(/actions\[0\]\.latency\.minMs: 50 is more than maxMs \(5\)/);
  });

  it('a scenario with a problem, naming the field', () => {
    const decoded = decodeRun(
      link([], {
        id: 'x',
        title: 'T',
        clients: [{ id: 'A', steps: [{ redis: ['GET', 'k'], node: 'r9' }] }],
        resource: { id: 's' },
      }),
    );
    expect(!decoded.ok && decoded.message).toMatch(/clients\[0\]\.steps\[0\]\.node: unknown Redis node 'r9'/);
  });
});

describe('a link of a changed story', () => {
  const lesson = { id: 'paused-barista' };
  it('carries the edits of the script and reads them back; a bad edit is named', () => {
    const config = {
      seed: 7,
      fencing: false,
      actions: [],
      edits: [
        { edit: 'resize' as const, mark: 0, lengthMs: 5000 },
        { edit: 'remove' as const, mark: 1 },
      ],
    };
    const back = decodeRun(encodeRun({ scenarioId: lesson.id, config }));
    expect(back).toEqual({ ok: true, run: { scenarioId: lesson.id, config } });
    // A run without edits makes the same link as before edits existed.
    expect(
      JSON.parse(
        atob(
          encodeRun({ scenarioId: lesson.id, config: { ...config, edits: [] } })
            .replace(/-/g, '+')
            .replace(/_/g, '/'),
        ),
      ),
    ).not.toHaveProperty('e');
    const bad = encodeRun({
      scenarioId: lesson.id,
      config: { ...config, edits: [{ edit: 'resize', mark: 0, lengthMs: -5 }] },
    });
    expect(decodeRun(bad)).toMatchObject({
      ok: false,
      problem: 'damaged',
      message: expect.stringContaining('changes to the script'),
    });
  });
});
