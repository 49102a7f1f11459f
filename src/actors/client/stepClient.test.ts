import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../scenario/diagnostic';
import { parseScenario } from '../../scenario/text/parse';
import { loadTestScripts, runYaml } from '../../testing/testKit';
import { simTime } from '../../sim/time';

beforeAll(loadTestScripts);

/** The plain-DEL bug written out by hand: A's lease runs out mid-job and its DEL removes B's. */
const PLAIN_DEL = `
id: steps
title: steps
seed: 3
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { wait: 5s }
      - { write: espresso }
      - { redis: [DEL, lock] }
  - id: B
    startAt: 4s
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { wait: 3s }
      - { write: espresso }
      - { redis: [DEL, lock] }
  - id: C
    startAt: 5500ms
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { wait: 1s }
      - { write: espresso }
resource: { id: espresso }
`;

describe('a client with an explicit step list', () => {
  it('runs its steps in order, recording each with its answer, through visible machine states', () => {
    const r = runYaml(PLAIN_DEL);
    const a = r.of('step.start', 'A').map((e) => e.data.detail);
    expect(a).toEqual(['SET lock {value} NX PX 3000', 'wait 5 s', 'write espresso', 'DEL lock']);
    const done = r.of('step.done', 'A').map((e) => e.data.result);
    expect(done).toEqual(['OK', 'waited', 'accepted', '(integer) 1']);
    expect(r.of('actor.state', 'A').map((e) => e.data.state)).toEqual([
      'idle',
      'running',
      'waiting',
      'running',
      'done',
    ]);
    // The value placeholder was filled with A's random value.
    const set = r.of('redis.command').find((e) => e.data.from === 'A' && e.data.argv[0] === 'SET')!;
    expect(set.data.argv[2]).toMatch(/^A-[0-9a-f]{8}$/);
  });

  it("shows the plain-DEL bug: A's late DEL deletes B's lock, C gets in while B works", () => {
    const r = runYaml(PLAIN_DEL);
    const released = r.of('lock.released', 'A')[0]!;
    expect(released.data.deleted).toBe(true);
    expect(r.of('lease.ended').find((e) => e.data.owner === 'B')!.data.reason).toBe('deleted');
    expect(r.of('lock.acquired').map((e) => e.actor)).toEqual(['A', 'B', 'C']);
    expect(r.verdict('single-holder').holds).toBe(false);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('carries the token a fencing script returned, so a fenced store refuses the stale write', () => {
    const steps = (ttl: string, wait: string) => `
      - { redis: [EVAL, "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return false", 2, lock, lock:fence, '{value}', ${ttl}], as: acquire }
      - { wait: ${wait} }
      - { write: espresso }`;
    const r = runYaml(`
id: fenced-steps
title: t
clients:
  - id: A
    steps:${steps('2000', '5s')}
  - id: B
    startAt: 3s
    steps:${steps('10000', '100ms')}
resource: { id: espresso, fencing: true }
`);
    expect(r.of('lock.acquired').map((e) => [e.actor, e.data.token])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.token, e.data.accepted])).toEqual([
      ['B', 2, true],
      ['A', 1, false],
    ]);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('carries a token drawn by INCR on its own (as: fence), even one drawn before the lock was taken', () => {
    // 003's lifecycle: INCR the counter, then SET NX. B draws 2 and takes the lock first; A drew
    // 1 earlier and gets the lock only after B, so the fenced store refuses A's rightful write.
    const r = runYaml(`
id: incr-first
title: t
clients:
  - id: A
    steps:
      - { redis: [INCR, fence] }
      - { wait: 500ms }
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { write: espresso }
  - id: B
    startAt: 100ms
    steps:
      - { redis: [INCR, fence] }
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { write: espresso }
      - { redis: [DEL, lock] }
resource: { id: espresso, fencing: true }
`);
    expect(r.of('step.done', 'A')[0]!.data.result).toBe('(integer) 1');
    expect(r.of('lock.acquired').map((e) => [e.actor, e.data.token])).toEqual([
      ['B', null],
      ['A', null],
    ]);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.token, e.data.accepted])).toEqual([
      ['B', 2, true],
      ['A', 1, false],
    ]);
  });

  it('infers fence for a lone INCR, and lets any integer-answering step say as: fence', () => {
    const parsed = parseScenario(
      `
id: f
title: t
clients:
  - { id: A, steps: [{ redis: [INCR, fence] }, { redis: [EVAL, "return 7", 0], as: fence }, { redis: [INCRBY, n, 2] }] }
resource: { id: espresso }
`,
      { file: 'f.yaml', line: 1 },
    );
    if (!parsed.ok) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    expect(parsed.scenario.clients[0]!.steps!.map((s) => (s.do === 'redis' ? s.as : s.do))).toEqual([
      'fence',
      'fence',
      'command',
    ]);
  });

  it('gives up (failed) or goes on without the lock, as ifBusy says', () => {
    const yaml = (ifBusy: string) => `
id: busy
title: t
clients:
  - { id: A, steps: [{ redis: [SET, lock, '{value}', NX, PX, 10000] }, { wait: 3s }, { write: espresso }] }
  - { id: B, startAt: 1s, steps: [{ redis: [SET, lock, '{value}', NX, PX, 10000], ifBusy: ${ifBusy} }, { write: espresso }] }
resource: { id: espresso }
`;
    const stop = runYaml(yaml('stop'));
    expect(stop.of('actor.state', 'B').at(-1)!.data.state).toBe('failed');
    expect(stop.of('lock.failed', 'B')).toHaveLength(1);
    expect(stop.verdict('single-writer').holds).toBe(true);
    const skip = runYaml(yaml('skip'));
    expect(skip.of('step.done', 'B')[0]!.data.result).toMatch(/busy, going on without the lock/);
    expect(skip.verdict('single-writer').holds).toBe(false);
  });

  it('retries a busy step by its retry policy (retrying state) until the lock is free', () => {
    const r = runYaml(`
id: retry
title: t
clients:
  - { id: A, steps: [{ redis: [SET, lock, '{value}', NX, PX, 10000] }, { wait: 1s }, { redis: [DEL, lock] }] }
  - { id: B, startAt: 100ms, retry: { policy: fixed, delay: 400ms }, steps: [{ redis: [SET, lock, '{value}', NX, PX, 10000] }] }
resource: { id: espresso }
`);
    expect(r.of('lock.busy', 'B')).toHaveLength(3);
    expect(r.of('actor.state', 'B').map((e) => e.data.state)).toContain('retrying');
    expect(r.of('lock.acquired', 'B')).toHaveLength(1);
  });
});

describe('an error reply to an acquiring step', () => {
  // lessons:check refuses a step Redis would refuse on an empty server (SETT, PX -5), so these
  // errors are the kind only a run can show: they depend on what is in Redis at the time.
  const yaml = (steps: string) => `
id: error-acquire
title: t
clients:
  - { id: A, retry: { policy: fixed, delay: 100ms }, steps: [${steps}, { write: espresso }] }
resource: { id: espresso }
`;

  it.each([
    [
      'a counter that is not a number',
      '{ redis: [SET, lock, busy] }, { redis: [INCR, lock], as: acquire }',
      2,
      /^ERR value is not an integer or out of range/,
    ],
    [
      'a script that answers with an error',
      `{ redis: [EVAL, "return redis.error_reply('ERR no lock for you')", '0'], as: acquire }`,
      1,
      /^ERR no lock for you/,
    ],
  ])(
    'stops the client at once (%s): failed, with the error in the trace, never retried as busy',
    (_, steps, commands, error) => {
      const r = runYaml(yaml(steps));
      expect(r.of('redis.command', 'r1')).toHaveLength(commands);
      expect(r.of('lock.busy', 'A')).toHaveLength(0);
      const failed = r.of('lock.failed', 'A');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.data.error).toMatch(error);
      expect(r.of('step.done', 'A').at(-1)!.data.result).toMatch(/an error, stopping$/);
      expect(r.of('actor.state', 'A').map((e) => e.data.state)).toEqual(['idle', 'running', 'failed']);
      expect(r.of('resource.request', 'A')).toHaveLength(0);
    },
  );
});

describe('step list diagnostics', () => {
  const problems = (yaml: string) => {
    const parsed = parseScenario(yaml, { file: 'x.yaml', line: 1 });
    return parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic);
  };
  const base = (client: string, resource = 'espresso') =>
    `id: d\ntitle: d\nclients:\n  - ${client}\nresource: { id: ${resource} }\n`;

  it('places a typo in a step with a did-you-mean hint', () => {
    expect(problems(base('{ id: A, steps: [{ wiat: 2s }] }'))).toEqual([
      "x.yaml:4:24: unknown key 'wiat' in clients[0].steps[0] (did you mean 'wait'?)",
    ]);
  });

  it('wants one thing per step, and a recipe or steps but not both', () => {
    expect(problems(base('{ id: A, steps: [{ wait: 2s, write: espresso }] }'))[0]).toMatch(
      /^x\.yaml:4:\d+: .*one step does one thing, this one has wait and write/,
    );
    expect(problems(base('{ id: A, recipe: lease-with-token, ttl: 1s, steps: [{ wait: 2s }] }'))[0]).toMatch(
      /^x\.yaml:4:\d+: clients\[0\]\.recipe: a client follows either a recipe or its steps, not both/,
    );
    expect(problems(base('{ id: A, ttl: 1s }'))).toEqual([
      "x.yaml:4:5: missing required key 'recipe' (add 'recipe:' here)",
    ]);
  });

  it('rejects unknown nodes and resources, and recipe settings on a step client', () => {
    expect(problems(base('{ id: A, steps: [{ redis: [GET, lock], node: r2 }] }'))).toEqual([
      "x.yaml:4:50: unknown Redis node 'r2' (did you mean 'r1'?)",
    ]);
    expect(problems(base('{ id: A, steps: [{ write: expresso }] }'))).toEqual([
      "x.yaml:4:31: unknown resource 'expresso' (the scenario's resource is 'espresso')",
    ]);
    expect(problems(base('{ id: A, work: 2s, steps: [{ wait: 1s }] }'))[0]).toMatch(
      /^x\.yaml:4:\d+: 'work' does nothing on a client with steps/,
    );
  });
});

describe('a client that crashes with a request in flight', () => {
  it('starts its steps over after a restart; the reply to its old life answers nobody', () => {
    // A's release waits at the paused r1 while A crashes and restarts; when r1 wakes, B wins the
    // lock, A's new SET is told to retry, and then the old life's release is answered. That
    // answer must not move A on to its write while B holds the lock.
    const release = `{ redis: [EVAL, "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, lock, '{value}'], as: release }`;
    const r = runYaml(
      `
id: restart
title: restart
seed: 1
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { write: espresso }
      - { wait: 2s }
      - ${release}
  - id: B
    startAt: 1s
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 100000] }
      - { wait: 3s }
      - { write: espresso }
      - ${release}
resource: { id: espresso }
`,
      {
        actions: [
          { at: simTime(1000), do: 'pause', target: 'r1', forMs: 4500 },
          { at: simTime(4000), do: 'crash', target: 'A' },
          { at: simTime(4100), do: 'restart', target: 'A' },
        ],
      },
    );
    const afterRestart = r
      .of('step.start', 'A')
      .filter((e) => e.at >= 4100)
      .map((e) => e.data.detail);
    // The new life starts at its first step, and writes only once it holds the lock.
    expect(afterRestart.slice(0, 2)).toEqual(['SET lock {value} NX PX 3000', 'SET lock {value} NX PX 3000']);
    expect(r.verdict('single-writer').holds).toBe(true);
  });
});

describe('a client that crashes during a wait', () => {
  it('never says it waited through the wait it lost; after a restart it waits through the new one', () => {
    const r = runYaml(
      `
id: crash-wait
title: crash-wait
seed: 1
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { wait: 5s }
      - { write: espresso }
resource: { id: espresso }
`,
      {
        actions: [
          { at: simTime(1000), do: 'crash', target: 'A' },
          { at: simTime(1500), do: 'restart', target: 'A' },
        ],
      },
    );
    // The wait begun at 4 ms was cut short at 1 s; the new life waits from 3,018 ms (once A's old lease let go).
    const waited = r.of('step.done', 'A').filter((e) => e.data.result === 'waited');
    expect(waited.map((e) => [e.at, e.data.index])).toEqual([[8018, 1]]);
    expect(
      r
        .of('actor.state', 'A')
        .map((e) => e.data.state)
        .slice(0, 5),
    ).toEqual(['idle', 'running', 'waiting', 'crashed', 'idle']);
  });
});
