import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

describe('two locks taken in opposite orders', () => {
  const yaml = (ordered: boolean) => `
id: deadlock
title: x then y, y then x
horizon: 40s
checks: { progressWithin: 5s }
clients:
  - { id: A, recipe: lease-with-token, keys: [x, y], ordered: ${ordered}, ttl: 10s, work: 1s }
  - { id: B, recipe: lease-with-token, keys: [y, x], ordered: ${ordered}, ttl: 10s, work: 1s }
resource: { id: ledger }
`;

  it('deadlocks: each holds one and waits for the other until a TTL runs out', () => {
    const r = runYaml(yaml(false));
    const firstGrants = r
      .of('lock.acquired')
      .slice(0, 2)
      .map((e) => [e.actor, e.data.key]);
    expect(firstGrants).toEqual(
      expect.arrayContaining([
        ['A', 'x'],
        ['B', 'y'],
      ]),
    );
    // Nothing moves until the first leases expire at about 10 s.
    const third = r.of('lock.acquired')[2]!;
    expect(third.at).toBeGreaterThan(10_000);
    expect(r.verdict('progress').holds).toBe(false);
    expect(r.verdict('progress').atMs).toBeLessThan(6_000);
  });

  it('global ordering fixes it: both take x first, so one simply waits its turn', () => {
    const r = runYaml(yaml(true));
    expect(r.verdict('progress').holds).toBe(true);
    expect(r.verdict('single-writer').holds).toBe(true);
    expect(r.of('resource.write')).toHaveLength(2);
    expect(r.of('resource.write')[1]!.at).toBeLessThan(3_000);
  });
});

describe('reentrancy', () => {
  const yaml = (recipe: string) => `
id: nested
title: a nested call takes the same lock
horizon: 30s
checks: { progressWithin: 5s }
clients:
  - { id: A, recipe: ${recipe}, ttl: 10s, work: 1s, reenter: 1 }
resource: { id: ledger }
`;

  it('a reentrant lock (hash + counter) lets the holder enter again and frees it after the last release', () => {
    const r = runYaml(yaml('reentrant'));
    expect(r.of('lock.acquired', 'A')).toHaveLength(2);
    expect(r.of('lock.busy', 'A')).toEqual([]);
    const counts = r
      .of('redis.command')
      .filter((e) => e.data.argv[1]?.includes('HINCRBY'))
      .map((e) => e.data.reply);
    expect(counts.slice(0, 2)).toEqual(['(integer) 1', '(integer) 2']);
    expect(r.of('lease.ended', 'r1')[0]!.data.reason).toBe('deleted');
    expect(r.of('resource.write')[0]!.at).toBeLessThan(2_000);
  });

  it('a plain lease deadlocks on itself: the nested call waits for its own lock until the TTL', () => {
    const r = runYaml(yaml('lease-with-token'));
    expect(r.of('lock.busy', 'A').length).toBeGreaterThan(10);
    expect(r.of('resource.write')[0]!.at).toBeGreaterThan(10_000);
    expect(r.verdict('progress').holds).toBe(false);
  });
});

describe('fencing tokens', () => {
  const yaml = (resource: string, tokens: boolean) => `
id: fence
title: fencing
seed: 7
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 2s, tokens: ${tokens} }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 2s, startAt: 11s, tokens: ${tokens} }
resource: ${resource}
script:
  - { at: 2s, do: pause, target: A, for: 15s }
`;

  it('a DB row with fence_token refuses the stale write with a conditional update', () => {
    const r = runYaml(yaml('{ id: row, kind: db-row, fencing: true }', false));
    const writes = r.of('resource.write').map((e) => [e.data.from, e.data.token, e.data.accepted]);
    expect(writes).toEqual([
      ['B', 2, true],
      ['A', 1, false],
    ]);
    expect(r.of('resource.write', 'row')[1]!.data.reason).toMatch(/UPDATE matched 0 rows/);
    expect(r.verdict('single-writer').holds).toBe(true);
    expect(r.verdict('fencing-monotonic').holds).toBe(true);
  });

  it('tokens the resource does not check protect nothing: fencing monotonicity breaks', () => {
    const r = runYaml(yaml('{ id: espresso }', true));
    const v = r.verdict('fencing-monotonic');
    expect(v.holds).toBe(false);
    expect(v.eventIds.map((id) => r.events[id]!.kind)).toEqual(['resource.write', 'resource.write']);
    expect(v.explanation).toMatch(/token 1 after .*token 2/);
  });
});
