import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostic';
import { parseScenario } from './parse';

const problems = (yaml: string) => {
  const r = parseScenario(yaml.trimStart(), { file: 'lessons/scenarios/x.yaml', line: 1 });
  return r.ok ? [] : r.diagnostics.map(formatDiagnostic);
};

const base = (client: string, rest = '') => `
id: s
title: S
clients:
  - ${client}
resource: { id: espresso }
${rest}`;

describe('scenario diagnostics', () => {
  it('names an unknown recipe with a did-you-mean hint at its line and column', () => {
    expect(problems(base('{ id: A, recipe: lease-with-tokn, ttl: 10s }'))).toEqual([
      expect.stringMatching(
        /^lessons\/scenarios\/x\.yaml:4:22: clients\[0\]\.recipe must be one of: .*\(did you mean 'lease-with-token'\?\)$/,
      ),
    ]);
  });

  it('suggests the right key for a misspelt one', () => {
    expect(problems(base('{ id: A, recipe: watchdog, ttl: 10s, renewEvry: 3s }'))[0]).toMatch(
      /4:42: unknown key 'renewEvry' .*did you mean 'renewEvery'/,
    );
  });

  it('refuses a negative or zero TTL, saying what Redis would answer', () => {
    expect(problems(base('{ id: A, recipe: lease-with-token, ttl: -5s }'))[0]).toMatch(
      /4:45: clients\[0\]\.ttl: a TTL must be greater than zero .*invalid expire time/,
    );
  });

  it('reports an unknown target in a script step and in a partition group', () => {
    const out = problems(
      base(
        '{ id: A, recipe: lease-with-token, ttl: 10s }',
        'script:\n  - { at: 1s, do: pause, target: AA }\n  - { at: 2s, do: partition, groups: [[A], [r2]] }',
      ),
    );
    expect(out[0]).toMatch(/7:34: unknown target 'AA' \(did you mean 'A'\?\)/);
    expect(out[1]).toMatch(/8:45: unknown target 'r2' \(did you mean 'r1'\?\)/);
  });

  it('refuses a view that ends where it starts, at its `to`', () => {
    expect(problems(base('{ id: A, recipe: lease-with-token, ttl: 10s }', 'view: { from: 60ms, to: 60ms }'))).toEqual([
      expect.stringMatching(/^lessons\/scenarios\/x\.yaml:6:\d+: .*the view's `to` must come after its `from`/),
    ]);
  });

  it('reports time going backwards in the script', () => {
    const out = problems(
      base(
        '{ id: A, recipe: lease-with-token, ttl: 10s }',
        'script:\n  - { at: 5s, do: heal }\n  - { at: 2s, do: heal }',
      ),
    );
    expect(out).toEqual([
      expect.stringMatching(
        /8:11: time goes backwards: 2000 ms comes after 5000 ms \(list script steps in time order\)/,
      ),
    ]);
  });

  it('refuses fencing on a resource that cannot check tokens, pointing at the alternative', () => {
    const yaml = base('{ id: A, recipe: lease-with-token, ttl: 10s }').replace(
      'resource: { id: espresso }',
      'resource: { id: psp, kind: payment, fencing: true }',
    );
    expect(problems(yaml)[0]).toMatch(/5:46: a 'payment' resource cannot check fencing tokens .*idempotencyKeys: true/);
  });

  it('refuses a probability outside 0..1 and an unknown Redis node', () => {
    const yaml = base('{ id: A, recipe: lease-with-token, ttl: 10s, node: r9 }', 'network: { loss: 1.5 }');
    expect(problems(yaml)[0]).toMatch(/network\.loss: a probability is between 0 and 1/);
    const yaml2 = base('{ id: A, recipe: lease-with-token, ttl: 10s, node: r9 }');
    expect(problems(yaml2)[0]).toMatch(/unknown Redis node 'r9' \(did you mean 'r1'\?\)/);
  });

  it('accepts every feature together', () => {
    const yaml = `
id: all
title: Everything
redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }] }
network:
  latency: { dist: long-tail, min: 1ms, median: 4ms, max: 500ms }
  loss: 0.01
  links: [{ from: A, to: r1, latency: 20ms }]
  partitions: [{ groups: [[B], [r3]], oneWay: true }]
clients:
  - { id: A, recipe: watchdog, ttl: 10s, work: forever, timeout: 1s, onRenewFail: retry }
  - { id: B, recipe: redlock, ttl: 10s, retry: { policy: exponential, delay: 100ms, jitter: 50ms, attempts: 5 } }
  - { id: C, recipe: lease-with-token, keys: [y, x], ordered: true, ttl: 5s, reenter: 1, jobs: 3 }
resource: { id: row, kind: db-row, fencing: true }
script:
  - { at: 1s, do: network, loss: 0.2 }
  - { at: 2s, do: partition, groups: [[A], [r1]] }
  - { at: 3s, do: heal }
checks: { progressWithin: 10s }
expect: [{ invariant: progress, outcome: violated }]
`;
    expect(problems(yaml)).toEqual([]);
  });
});

describe('YAML that would expand without bound', () => {
  it('reports an alias bomb at its first alias, as file:line:col, instead of throwing', () => {
    const bomb = [
      'id: s',
      'title: S',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefg'[i]}`).join(', ')}]`),
      'clients: [{ id: A, recipe: lease-with-token, ttl: 10s }]',
      'resource: { id: e }',
    ].join('\n');
    expect(problems(bomb)).toEqual([
      expect.stringMatching(/^lessons\/scenarios\/x\.yaml:4:8: the aliases here \(\*name\) expand to too many values/),
    ]);
  });
});

describe('latency ranges', () => {
  it('refuses a min longer than the max, at the min', () => {
    const yaml = base(
      '{ id: A, recipe: lease-with-token, ttl: 10s }',
      'network:\n  latency: { min: 30ms, max: 2ms }\n  links: [{ from: A, to: r1, latency: { dist: long-tail, min: 1ms, median: 9ms, max: 5ms } }]',
    );
    expect(problems(yaml)).toEqual([
      'lessons/scenarios/x.yaml:7:19: the shortest delay (min 30 ms) is longer than the longest (max 2 ms) (swap min and max)',
      'lessons/scenarios/x.yaml:8:76: the median delay (9 ms) is outside min..max (1..5 ms)',
    ]);
  });
});

describe('expect: all', () => {
  it("refuses 'all' with outcome violated", () => {
    expect(
      problems(base('{ id: A, recipe: lease-with-token, ttl: 10s }', 'expect: { invariant: all, outcome: violated }')),
    ).toEqual([
      "lessons/scenarios/x.yaml:6:36: expect.outcome: 'all' goes with outcome: holds (list each invariant the run breaks on its own)",
    ]);
  });
});

describe('messages a newcomer can act on', () => {
  const client = '{ id: A, recipe: lease-with-token, ttl: 10s }';

  it('an unquoted colon says so and gives the quoted value', () => {
    expect(problems(base(client).replace('title: S', 'title: Yes: it does'))).toEqual([
      'lessons/scenarios/x.yaml:2:8: this value contains \': \' (a colon and a space), which YAML reads as the start of a new key (put the whole value in quotes: "Yes: it does")',
    ]);
    expect(problems(base('{ id: A, label: Barista: A, recipe: lease-with-token, ttl: 10s }'))[0]).toMatch(
      /4:21: this value contains .*\(put the whole value in quotes: "Barista: A"\)$/,
    );
  });

  it('a duplicate key names the key and where it was first set', () => {
    expect(problems(base('{ id: A, recipe: lease-with-token, ttl: 10s, ttl: 5s }'))).toEqual([
      "lessons/scenarios/x.yaml:4:50: duplicate key 'ttl': it is already set at line 4, column 40 (each key may appear once in a mapping; remove or rename one of them)",
    ]);
  });

  it('a missing key is named, even where a union would have said "Invalid input"', () => {
    const out = problems(
      base(client, 'script:\n  - { at: 1s, target: A }\n  - { do: clock-jump, target: A }\nexpect: { outcome: holds }'),
    );
    expect(out).toEqual([
      "lessons/scenarios/x.yaml:7:5: missing required key 'do' (add 'do:' with one of: pause, resume, crash, restart, clock-jump, partition, heal, network, command, failover, power-loss)",
      "lessons/scenarios/x.yaml:8:5: missing required key 'at' (add 'at:' here)",
      "lessons/scenarios/x.yaml:8:5: missing required key 'by' (add 'by:' here)",
      "lessons/scenarios/x.yaml:9:9: missing required key 'invariant' (add 'invariant:' here)",
    ]);
  });

  it('a value of a union reports the problem of the branch it was meant for', () => {
    expect(problems(base('{ id: A, recipe: lease-with-token, ttl: 10s, retry: { policy: sometimes } }'))).toEqual([
      'lessons/scenarios/x.yaml:4:67: clients[0].retry.policy must be one of: none, fixed, exponential',
    ]);
  });

  it('a reserved id says it is reserved', () => {
    expect(problems(base('{ id: __proto__, recipe: lease-with-token, ttl: 10s }'))).toEqual([
      "lessons/scenarios/x.yaml:4:11: clients[0].id: '__proto__' is a reserved name (JavaScript uses it inside every object); pick another id",
    ]);
    expect(problems(base('{ id: constructor, recipe: lease-with-token, ttl: 10s }'))[0]).toMatch(
      /'constructor' is a reserved name/,
    );
  });
});
