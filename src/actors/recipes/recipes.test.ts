import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

describe('get-then-set (racy)', () => {
  const yaml = (gap: string) => `
id: race
title: GET then SET
clients:
  - { id: A, recipe: get-then-set, ttl: 10s, work: 1s, gap: ${gap} }
  - { id: B, recipe: get-then-set, ttl: 10s, work: 1s, gap: ${gap} }
resource: { id: notebook }
`;

  it('lets two clients both see the lock empty and both set it: two holders, two writers', () => {
    const run = yaml('20ms');
    const r = runYaml(run);
    expect(
      r
        .of('lock.acquired')
        .map((e) => e.actor)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(r.verdict('single-holder').holds).toBe(false);
    expect(r.verdict('single-writer').holds).toBe(false);
    // Redis saw one key, overwritten: its own view never had two leases at once.
    expect(r.of('lease.ended').some((e) => e.data.reason === 'overwritten')).toBe(true);
    expect(r.verdict('single-lease').holds).toBe(true);
  });
});

describe('setnx-then-expire (non-atomic)', () => {
  const yaml = (crash: boolean) =>
    `
id: immortal
title: SETNX then EXPIRE
horizon: 30s
checks: { progressWithin: 10s }
clients:
  - { id: A, recipe: setnx-then-expire, ttl: 5s, work: 1s, gap: 100ms }
  - { id: B, recipe: setnx-then-expire, ttl: 5s, work: 1s, startAt: 1s }
resource: { id: notebook }
script:
${crash ? '  - { at: 50ms, do: crash, target: A }' : '  []'}
`.replace('script:\n  []', 'script: []');

  it('leaves an immortal lock when the client crashes between the two commands', () => {
    const r = runYaml(yaml(true));
    const grant = r.of('lease.granted', 'r1')[0]!;
    expect(grant.data).toMatchObject({ owner: 'A', expiresAtMs: null });
    expect(r.of('lease.ended')).toEqual([]);
    expect(r.of('lock.acquired', 'B')).toEqual([]);
    expect(r.verdict('progress').holds).toBe(false);
  });

  it('works when nothing crashes: the lock gets its expiry and B takes it after A', () => {
    const r = runYaml(yaml(false));
    expect(r.of('lock.acquired').map((e) => e.actor)).toEqual(['A', 'B']);
    expect(r.verdict('progress').holds).toBe(true);
  });
});

describe('release: plain DEL vs token check-and-delete', () => {
  const yaml = (recipe: string) => `
id: del
title: plain DEL
clients:
  - { id: A, recipe: ${recipe}, ttl: 5s, work: 7s }
  - { id: B, recipe: ${recipe}, ttl: 5s, work: 5s, startAt: 1s }
  - { id: C, recipe: ${recipe}, ttl: 5s, work: 1s, startAt: 6s }
resource: { id: espresso }
`;

  it("plain DEL deletes B's lock and lets C in while B still works", () => {
    const r = runYaml(yaml('lease-plain-del'));
    const deleted = r.of('lease.ended').find((e) => e.data.owner === 'B')!;
    expect(deleted.data.reason).toBe('deleted');
    expect(r.of('redis.command').find((e) => e.id < deleted.id && e.data.argv[0] === 'DEL')!.data.from).toBe('A');
    const cIn = r.of('lock.acquired', 'C')[0]!;
    const bOut = r.of('lock.released', 'B')[0]!;
    expect(cIn.at).toBeLessThan(bOut.at);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it("the token check leaves B's lock alone: C waits until B releases", () => {
    const r = runYaml(yaml('lease-with-token'));
    expect(r.of('lock.released', 'A')[0]!.data.deleted).toBe(false);
    const cIn = r.of('lock.acquired', 'C')[0]!;
    const bOut = r.of('lock.released', 'B')[0]!;
    expect(cIn.at).toBeGreaterThan(bOut.at);
  });
});

describe('watchdog renewal', () => {
  const base = (extra: string, script = '[]') => `
id: wd
title: watchdog
horizon: 60s
checks: { progressWithin: 20s }
clients:
  - { id: A, recipe: watchdog, ttl: 10s, ${extra} }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 1s, startAt: 1s }
resource: { id: espresso }
script: ${script}
`;

  it('keeps a lease alive through work longer than the TTL (renewing every ttl/3)', () => {
    const r = runYaml(base('work: 25s'));
    expect(r.of('lock.renewed', 'A').length).toBeGreaterThanOrEqual(7);
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeGreaterThan(25_000);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('a pause longer than the TTL: the renewal that fell due in it fires at the resume, and A stops without writing', () => {
    const r = runYaml(base('work: 3s', '[{ at: 2s, do: pause, target: A, for: 15s }]'));
    expect(r.of('lease.ended', 'r1')[0]).toMatchObject({ data: { owner: 'A', reason: 'expired' } });
    expect(r.of('lock.renewed', 'A')).toEqual([]);
    // The watchdog's deadline (3.3 s) passed during the pause: it asks at 17 s, not 1.3 s later.
    expect(r.of('net.send', 'A').find((e) => e.data.label.startsWith('EVAL'))!.at).toBe(17_000);
    expect(r.of('lock.lost', 'A')).toHaveLength(1);
    expect(r.of('resource.write').map((e) => e.data.from)).toEqual(['B']);
  });

  it('races the renewal: work with less left than its round trip writes before the answer says the lease is gone', () => {
    // 2 s of work from 4 ms, paused at 2 s: 4 ms of it are left at the resume; the answer takes 5.
    const r = runYaml(base('work: 2s', '[{ at: 2s, do: pause, target: A, for: 15s }]'));
    const written = r.of('resource.request', 'A')[0]!;
    expect(written.at).toBeLessThan(r.of('lock.lost', 'A')[0]!.at);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('finds out on the next renewal if that comes first, and stops without writing', () => {
    const r = runYaml(base('work: 6s', '[{ at: 2s, do: pause, target: A, for: 15s }]'));
    expect(r.of('lock.lost', 'A')).toHaveLength(1);
    expect(r.of('resource.write').map((e) => e.data.from)).toEqual(['B']);
  });

  const flaky = (policy: string) => `
id: flaky
title: renewal timeout
clients:
  - { id: A, recipe: watchdog, ttl: 9s, work: 8s, timeout: 500ms, onRenewFail: ${policy} }
resource: { id: espresso }
script:
  - { at: 2900ms, do: partition, groups: [[A], [r1]] }
  - { at: 5s, do: heal }
`;

  it('stop: one unanswered renewal and the client gives up a lease that was still valid', () => {
    const r = runYaml(flaky('stop'));
    expect(r.of('request.timeout', 'A').length).toBeGreaterThanOrEqual(1);
    expect(r.of('lock.lost', 'A')).toHaveLength(1);
    expect(r.of('resource.write')).toEqual([]);
  });

  it('retry: keeps trying until the partition heals, renews, and finishes the job', () => {
    const r = runYaml(flaky('retry'));
    expect(r.of('request.timeout', 'A').length).toBeGreaterThanOrEqual(2);
    expect(r.of('lock.lost', 'A')).toEqual([]);
    expect(r.of('lock.renewed', 'A').some((e) => e.at > 5000)).toBe(true);
    expect(r.of('resource.write', 'espresso')).toHaveLength(1);
  });

  it('a wedged worker renews forever and nobody else ever gets the lock', () => {
    const r = runYaml(base('work: forever'));
    expect(r.of('lock.acquired', 'B')).toEqual([]);
    expect(r.of('lock.renewed', 'A').length).toBeGreaterThan(15);
    expect(r.verdict('progress').holds).toBe(false);
    expect(r.verdict('run-completes').holds).toBe(false);
  });
});

describe('retry policies', () => {
  const yaml = (retry: string) => `
id: retry
title: retries
horizon: 30s
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 8s }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 1s, startAt: 10ms, retry: ${retry} }
resource: { id: espresso }
`;
  const gaps = (yamlText: string) => {
    const requests = runYaml(yamlText)
      .of('lock.request', 'B')
      .map((e) => e.at);
    return requests.slice(1).map((t, i) => t - requests[i]!);
  };

  it('none: one try, then the client gives up', () => {
    const r = runYaml(yaml('none'));
    expect(r.of('lock.request', 'B')).toHaveLength(1);
    expect(r.of('lock.failed', 'B')[0]!.data.attempts).toBe(1);
  });

  it('fixed with bounded attempts gives up after the last one', () => {
    const r = runYaml(yaml('{ policy: fixed, delay: 1s, attempts: 3 }'));
    expect(r.of('lock.request', 'B')).toHaveLength(3);
    expect(r.of('lock.failed', 'B')).toHaveLength(1);
  });

  it('exponential backoff doubles the wait, and jitter comes from the seed', () => {
    const g = gaps(yaml('{ policy: exponential, delay: 200ms, jitter: 50ms }'));
    expect(g.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < 4; i++) expect(g[i]!).toBeGreaterThan(g[i - 1]! * 1.5);
    expect(gaps(yaml('{ policy: exponential, delay: 200ms, jitter: 50ms }'))).toEqual(g);
  });
});

describe('when the lock is unavailable (a partition cuts A off from Redis)', () => {
  const yaml = (choice: string) => `
id: cap
title: proceed or refuse
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 1s, startAt: 500ms, timeout: 200ms, retry: { policy: fixed, delay: 100ms, attempts: 3 }, onUnavailable: ${choice} }
  - { id: B, recipe: lease-with-token, ttl: 10s, work: 3s }
resource: { id: espresso }
network: { partitions: [{ groups: [[A], [r1]] }] }
`;

  it('refuse (consistency): A gives up and never touches the resource', () => {
    const r = runYaml(yaml('refuse'));
    expect(r.of('lock.failed', 'A')).toHaveLength(1);
    expect(r.of('resource.write').map((e) => e.data.from)).toEqual(['B']);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('proceed (availability): A works without the lock and writes while B holds it', () => {
    const r = runYaml(yaml('proceed'));
    expect(r.of('lock.failed', 'A')).toHaveLength(1);
    expect(r.of('lock.acquired', 'A')).toEqual([]);
    expect(r.of('resource.write').map((e) => e.data.from)).toEqual(['A', 'B']);
    expect(r.verdict('single-writer').holds).toBe(false);
    expect(r.verdict('single-writer').explanation).toMatch(/^A wrote without holding the lock while B held it/);
  });

  it('proceed never overrides a clear "taken": with Redis reachable, A gives up like a refusing client', () => {
    const r = runYaml(yaml('proceed').replace('network: { partitions: [{ groups: [[A], [r1]] }] }\n', ''));
    expect(r.of('lock.busy', 'A').length).toBeGreaterThan(0);
    expect(r.of('lock.failed', 'A')).toHaveLength(1);
    expect(r.of('resource.write').map((e) => e.data.from)).toEqual(['B']);
    expect(r.verdict('single-writer').holds).toBe(true);
  });
});
