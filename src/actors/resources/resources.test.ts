import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

/** The paused-barista schedule against any resource: A reads, freezes past its TTL, B takes over. */
const paused = (resource: string, pause = true) => `
id: res
title: resource
seed: 7
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 2s }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 2s, startAt: 11s }
resource: ${resource}
script: ${pause ? '[{ at: 1s, do: pause, target: A, for: 15s }]' : '[]'}
`;

describe('inventory counter', () => {
  it('loses a sale when two holders read the same stock: both write 9', () => {
    const r = runYaml(paused('{ id: stock, kind: inventory, stock: 10 }'));
    expect(r.of('resource.read').map((e) => [e.data.from, e.data.value])).toEqual([
      ['A', '10'],
      ['B', '10'],
    ]);
    expect(r.of('resource.write').map((e) => e.data.value)).toEqual(['stock 9', 'stock 9']);
    const v = r.verdict('no-lost-update');
    expect(v.holds).toBe(false);
    expect(v.eventIds.map((id) => (r.events[id] as { data: { from: string } }).data.from)).toEqual(['B', 'A']);
  });

  it('counts every sale when the holders take turns', () => {
    const r = runYaml(paused('{ id: stock, kind: inventory, stock: 10 }', false));
    expect(r.of('resource.write').map((e) => e.data.value)).toEqual(['stock 9', 'stock 8']);
    expect(r.verdict('no-lost-update').holds).toBe(true);
  });
});

describe('payment provider', () => {
  it('charges twice when two holders both saw the order unpaid', () => {
    const r = runYaml(paused('{ id: psp, kind: payment, order: order-42 }'));
    expect(r.of('resource.write').filter((e) => e.data.accepted)).toHaveLength(2);
    expect(r.verdict('no-double-charge').holds).toBe(false);
  });

  it('charges once with idempotency keys: the repeat returns the first result', () => {
    const r = runYaml(paused('{ id: psp, kind: payment, order: order-42, idempotencyKeys: true }'));
    const writes = r.of('resource.write');
    expect(writes.map((e) => e.data.accepted)).toEqual([true, false]);
    expect(writes[1]!.data.reason).toMatch(/idempotency key order-42/);
    expect(r.verdict('no-double-charge').holds).toBe(true);
  });

  it('skips the charge when the read says the order is already paid', () => {
    const r = runYaml(paused('{ id: psp, kind: payment }', false));
    expect(r.of('resource.read').map((e) => e.data.value)).toEqual(['order-42 unpaid', 'order-42 paid']);
    expect(r.of('resource.write')).toHaveLength(1);
  });
});

describe('dispatch service', () => {
  it('sends two drivers when assignment is unconditional', () => {
    const r = runYaml(paused('{ id: dispatch, kind: dispatch, order: order-7 }'));
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([
      ['B', true],
      ['A', true],
    ]);
    expect(r.verdict('no-double-assignment').holds).toBe(false);
  });

  it('refuses the second assignment with a conditional NEW → ASSIGNED update', () => {
    const r = runYaml(paused('{ id: dispatch, kind: dispatch, order: order-7, conditional: true }'));
    const [, second] = r.of('resource.write');
    expect(second!.data).toMatchObject({ from: 'A', accepted: false });
    expect(second!.data.reason).toMatch(/already ASSIGNED to B/);
    expect(r.verdict('no-double-assignment').holds).toBe(true);
  });
});

/** One holder that writes twice with its single token (INCR gives it token 1). */
const twoWrites = (resource: string) => `
id: twice
title: one holder, two writes
seed: 7
clients:
  - id: A
    steps:
      - { redis: [INCR, 'fence'], as: acquire }
      - { write: espresso }
      - { write: espresso }
resource: ${resource}
`;

describe('fenced store: lenient (<=) or strict (<)', () => {
  // Lesson 10's repeated token: failover-fencing with one order for B, so B's only write carries
  // the token 1 the failover handed out again, and A (still holding 1 from the old primary) writes after it.
  const failover = readFileSync('lessons/scenarios/failover-fencing.yaml', 'utf8').replace(', jobs: 2 }', ' }');
  const writes = (yaml: string) =>
    runYaml(yaml)
      .of('resource.write')
      .map((e) => [e.data.from, e.data.token, e.data.accepted]);

  it('lenient lets a holder write twice with its token; strict refuses the second write', () => {
    expect(writes(twoWrites('{ id: espresso, fencing: true }'))).toEqual([
      ['A', 1, true],
      ['A', 1, true],
    ]);
    const strict = runYaml(twoWrites('{ id: espresso, fencing: true, fenceCompare: strict }')).of('resource.write');
    expect(strict.map((e) => e.data.accepted)).toEqual([true, false]);
    expect(strict[1]!.data.reason).toBe('token 1 was already used (strict: one write per token)');
  });

  it('a db-row in strict mode reads as a WHERE fence_token < :token that matched no row', () => {
    const strict = runYaml(twoWrites('{ id: espresso, kind: db-row, fencing: true, fenceCompare: strict }')).of(
      'resource.write',
    );
    expect(strict[1]!.data.reason).toBe('UPDATE matched 0 rows: fence_token is already 1 (WHERE fence_token < 1)');
  });

  it('after a failover repeats a token, lenient lets both holders write with it; strict refuses the second', () => {
    const lenient = writes(failover);
    const strict = writes(failover.replace('fencing: true }', 'fencing: true, fenceCompare: strict }'));
    const repeated = lenient.filter(([, token]) => token === lenient[0]![1]);
    expect(new Set(repeated.map(([from]) => from)).size).toBe(2);
    expect(repeated.every(([, , accepted]) => accepted)).toBe(true);
    const strictRepeated = strict.filter(([, token]) => token === strict[0]![1]);
    expect(strictRepeated.map(([, , accepted]) => accepted)).toEqual([true, false]);
  });

  it('refuses fenceCompare on a resource that does not compare tokens', () => {
    expect(() => runYaml(twoWrites('{ id: espresso, kind: inventory, fenceCompare: strict }'))).toThrow(
      /fenceCompare applies to kind store or db-row/,
    );
  });
});
