import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

/**
 * Two Redlock holders of one row guarded by the random lock value; `extra` adds faults. A does
 * not keep to its validity (`validity: ignored`), so its stale writes reach the row, which is
 * what these tests are about.
 */
const row = (extra: string, bWork = '2s', bStart = '11s') => `
id: cas
title: cas row
seed: 4
redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }, { id: r4 }, { id: r5 }] }
clients:
  - { id: A, recipe: redlock, ttl: 10s, work: 3s, redlock: { validity: ignored } }
  - { id: B, recipe: redlock, ttl: 10s, work: ${bWork}, startAt: ${bStart} }
resource: { id: job, kind: cas-row }
${extra}
`;

describe('compare-and-set row on the random lock value', () => {
  it('stamps each holder’s value on claiming and accepts its write while the value is still there', () => {
    const r = runYaml(row(''));
    const values = new Map(r.of('lock.acquired').map((e) => [e.actor, e.data.value]));
    expect(r.of('resource.read').map((e) => e.data.value)).toEqual([
      `owner = ${values.get('A')}`,
      `owner = ${values.get('B')} (was ${values.get('A')})`,
    ]);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([
      ['A', true],
      ['B', true],
    ]);
  });

  it('refuses a paused holder once a newer holder has claimed the row, even before the newer one writes', () => {
    const r = runYaml(row('script: [{ at: 2s, do: pause, target: A, for: 10s }]', '4s'));
    const writes = r.of('resource.write');
    expect(writes.map((e) => [e.data.from, e.data.accepted])).toEqual([
      ['A', false],
      ['B', true],
    ]);
    const b = r.of('lock.acquired', 'B')[0]!.data.value;
    expect(writes[0]!.data.reason).toContain(`owner is ${b}`);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('cannot tell an old value from a new one: a stale claim that arrives late takes the row back', () => {
    const r = runYaml(
      row('network: { links: [{ from: A, to: job, latency: 12s }] }', '1s', '10500ms').replace('work: 3s', 'work: 1s'),
    );
    expect(r.of('resource.read').map((e) => e.data.from)).toEqual(['B', 'A']);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([
      ['B', true],
      ['A', true],
    ]);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('cannot check fencing tokens, and says so', () => {
    expect(() => runYaml(row('').replace('kind: cas-row', 'kind: cas-row, fencing: true'))).toThrow(
      /'cas-row' resource cannot check fencing tokens/,
    );
  });
});
