import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../scenario/testKit';

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
    expect(r.of('resource.read').map((e) => [e.data.from, e.data.value])).toEqual([['A', '10'], ['B', '10']]);
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
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([['B', true], ['A', true]]);
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
