import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

const FIVE = 'redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }, { id: r4 }, { id: r5 }] }';

describe('Redlock over five masters', () => {
  it('grants on a majority, makes the other client wait, and releases on every master', () => {
    const r = runYaml(`
id: redlock
title: Redlock
${FIVE}
clients:
  - { id: A, recipe: redlock, ttl: 10s, work: 1s }
  - { id: B, recipe: redlock, ttl: 10s, work: 1s, startAt: 100ms }
resource: { id: espresso }
`);
    const a = r.of('lock.acquired', 'A')[0]!;
    // validity = ttl − elapsed − drift, drift = round(0.01 · ttl) + 2 = 102 ms; the lease is the keys' own.
    expect(a.data.validityMs).toBeLessThanOrEqual(10_000 - 102);
    expect(a.data.validityMs).toBeGreaterThan(10_000 - 102 - 20);
    expect(a.data.ttlMs).toBe(10_000);
    expect(r.of('lock.busy', 'B').length).toBeGreaterThan(0);
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeGreaterThan(r.of('lock.released', 'A')[0]!.at);
    const releases = r.of('redis.command').filter((e) => e.data.from === 'A' && e.data.argv[1]?.includes("'DEL'"));
    expect(new Set(releases.map((e) => e.actor))).toEqual(new Set(['r1', 'r2', 'r3', 'r4', 'r5']));
    expect(r.verdict('single-writer').holds).toBe(true);
    expect(r.verdict('single-lease').holds).toBe(true);
  });

  it("one master's clock jump gives two holders", () => {
    const r = runYaml(`
id: redlock-jump
title: clock jump
${FIVE}
network: { partitions: [{ groups: [[A], [r4, r5]] }] }
clients:
  - { id: A, recipe: redlock, ttl: 10s, work: 3s }
  - { id: B, recipe: redlock, ttl: 10s, work: 1s, startAt: 2s }
resource: { id: espresso }
script:
  - { at: 1s, do: clock-jump, target: r3, by: 15s }
`);
    // A reached r1–r3 only (r4 and r5 are cut off), yet three is a majority of five.
    expect(r.of('lock.acquired', 'A')).toHaveLength(1);
    const acquiredAt = r.of('lock.acquired', 'A')[0]!.at;
    expect(r.of('request.timeout', 'A').filter((e) => e.at <= acquiredAt)).toHaveLength(2);
    expect(r.of('lease.ended', 'r3')[0]).toMatchObject({ data: { owner: 'A', reason: 'expired' } });
    const granted = r
      .of('lease.granted')
      .filter((e) => e.data.owner === 'B')
      .map((e) => e.actor)
      .sort();
    expect(granted).toEqual(['r3', 'r4', 'r5']);
    expect(r.verdict('single-holder').holds).toBe(false);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('unlocks everywhere after a failed round, freeing the minority it did get', () => {
    const r = runYaml(`
id: redlock-minority
title: minority
${FIVE}
network: { latency: { min: 1ms, max: 40ms } }
clients:
  - { id: A, recipe: redlock, ttl: 10s, work: 1s, nodes: [r1, r2, r3, r4, r5] }
  - { id: B, recipe: redlock, ttl: 10s, work: 1s, retry: none }
resource: { id: espresso }
`);
    // Both ask at once; whoever lost the race on a master holds a minority and must let it go.
    const loser = r.of('lock.failed')[0]!.actor;
    const loserLeases = r.of('lease.granted').filter((e) => e.data.owner === loser);
    const ended = r.of('lease.ended').filter((e) => e.data.owner === loser);
    expect(loserLeases.length).toBeGreaterThan(0);
    expect(loserLeases.length).toBeLessThan(3);
    expect(ended.map((e) => e.data.reason)).toEqual(loserLeases.map(() => 'deleted'));
  });
});

describe('Redlock validity', () => {
  const paused = (validity: string) => `
id: lapse
title: a pause past the validity
seed: 4
redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }, { id: r4 }, { id: r5 }] }
clients:
  - { id: A, recipe: redlock, ttl: 10s, work: 3s${validity} }
  - { id: B, recipe: redlock, ttl: 10s, work: 2s, startAt: 11s }
resource: { id: espresso }
script:
  - { at: 2s, do: pause, target: A, for: 15s }
`;

  it('stops a careful client from writing once its validity has run out, and unlocks every master', () => {
    const r = runYaml(paused(''));
    expect(r.of('resource.request', 'A')).toEqual([]);
    const lost = r.of('lock.lost', 'A');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.data.reason).toMatch(/validity ran out/);
    // Its release goes to all five masters, after it stopped believing.
    const released = r.of('lock.released', 'A');
    expect(released).toHaveLength(1);
    expect(released[0]!.at).toBeGreaterThanOrEqual(lost[0]!.at);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('ends the hold when the validity runs out, even with nothing to write yet', () => {
    const r = runYaml(
      paused('')
        .replace('work: 3s', 'work: 20s')
        .replace(/script:\n.*\n/, 'script: []\n'),
    );
    const lost = r.of('lock.lost', 'A')[0]!;
    const acquired = r.of('lock.acquired', 'A')[0]!;
    // The validity (TTL − elapsed − drift) counts from the moment the round succeeded: the lock
    // is used until the round's start (0) plus TTL − drift, 10,000 − (1% + 2 ms) = 9,898 ms.
    expect(lost.at).toBe(acquired.at + acquired.data.validityMs!);
    expect(lost.at).toBe(9898);
    expect(r.verdict('single-holder').holds).toBe(true);
  });

  it('lets the careless client (validity: ignored) write late, as lessons that need it show', () => {
    const r = runYaml(paused(', redlock: { validity: ignored }'));
    expect(r.of('resource.request', 'A')).toHaveLength(1);
    expect(r.verdict('single-writer').holds).toBe(false);
  });
});
