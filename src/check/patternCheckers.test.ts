import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../testing/testKit';

beforeAll(loadTestScripts);

/** A scenario around `clients` (YAML flow lines), with optional extra top-level YAML. */
function scenario(clients: string[], extra = ''): string {
  return `id: t\ntitle: t\nseed: 1\nhorizon: 30s\nnetwork: { latency: 1ms }\n${extra}clients:\n${clients.map((c) => `  - ${c}`).join('\n')}\nresource: { id: doc }\n`;
}

describe('within-permits', () => {
  const holder = (id: string, more = '') =>
    `{ id: ${id}, recipe: semaphore, permits: 2, ttl: 4s, work: 3s, retry: { policy: fixed, delay: 100ms }${more} }`;

  it('holds while the semaphore keeps its holders to its permits', () => {
    const run = runYaml(scenario([holder('A'), holder('B'), holder('C'), holder('D')]));
    expect(run.verdict('within-permits').holds).toBe(true);
    // Two at a time: C and D only get in once A and B have let go.
    const acquired = run.of('lock.acquired').map((e) => e.actor);
    expect(acquired).toEqual(['A', 'B', 'C', 'D']);
    expect(run.verdict('single-holder').holds).toBe(true);
  });

  it('breaks when a holder pauses past its lease and wakes up believing it still has a permit', () => {
    const run = runYaml(
      scenario(
        [holder('A'), holder('B', ', startAt: 10ms'), holder('C', ', startAt: 20ms'), holder('D', ', startAt: 30ms')],
        'script:\n  - { at: 100ms, do: pause, target: A, for: 8s }\n',
      ),
    );
    const v = run.verdict('within-permits');
    expect(v.holds).toBe(false);
    expect(v.explanation).toMatch(/3 clients believed they held “lock” at once .*only 2 permits/);
    // The proof: the three acquisitions that overlapped.
    expect(v.eventIds.map((id) => run.events[id]!.kind)).toEqual(['lock.acquired', 'lock.acquired', 'lock.acquired']);
  });
});

describe('readers-or-one-writer', () => {
  it('holds with the one-script lock: the writer waits for the reader', () => {
    const run = runYaml(
      scenario([
        '{ id: R, recipe: read-lock, ttl: 5s, work: 1s, gap: 20ms }',
        '{ id: W, recipe: write-lock, ttl: 5s, work: 1s, gap: 20ms, startAt: 5ms, retry: { policy: fixed, delay: 100ms } }',
      ]),
    );
    expect(run.verdict('readers-or-one-writer').holds).toBe(true);
    expect(run.of('lock.acquired').map((e) => e.actor)).toEqual(['R', 'W']);
  });

  it('lets readers share', () => {
    const run = runYaml(
      scenario([
        '{ id: R1, recipe: read-lock, ttl: 5s, work: 1s }',
        '{ id: R2, recipe: read-lock, ttl: 5s, work: 1s, startAt: 5ms }',
      ]),
    );
    expect(run.verdict('readers-or-one-writer').holds).toBe(true);
    const [r1, r2] = run.of('lock.acquired');
    expect(r2!.at - r1!.at).toBeLessThan(100);
  });

  it('breaks with the two-step lock: both look before either takes', () => {
    const run = runYaml(
      scenario([
        '{ id: R, recipe: read-lock-two-step, ttl: 5s, work: 1s, gap: 20ms }',
        '{ id: W, recipe: write-lock-two-step, ttl: 5s, work: 1s, gap: 20ms, startAt: 5ms }',
      ]),
    );
    const v = run.verdict('readers-or-one-writer');
    expect(v.holds).toBe(false);
    expect(v.explanation).toMatch(/W \(a writer\) came to believe it held “lock” while R \(a reader\)/);
    expect(v.eventIds.map((id) => run.events[id]!.actor)).toEqual(['R', 'W']);
  });
});

describe('served-in-order and bounded-wait', () => {
  const clients = (recipe: string) => [
    `{ id: A, recipe: ${recipe}, ttl: 5s, work: 1s, jobs: 8, retry: { policy: fixed, delay: 50ms } }`,
    `{ id: B, recipe: ${recipe}, ttl: 5s, work: 1s, jobs: 8, startAt: 10ms, retry: { policy: fixed, delay: 50ms } }`,
    `{ id: C, recipe: ${recipe}, ttl: 5s, work: 1s, startAt: 20ms, retry: { policy: fixed, delay: 1s } }`,
  ];
  const checks = 'checks: { maxWait: 6s }\nexpect: { invariant: served-in-order, outcome: holds }\n';

  it('break under a plain lease: the client that just let go asks again first and wins', () => {
    const run = runYaml(scenario(clients('lease-with-token'), checks));
    const order = run.verdict('served-in-order');
    expect(order.holds).toBe(false);
    expect(order.explanation).toMatch(/A got “lock” .* while B, who had asked first/);
    // The proof: B's request, then A's (later) request, then A's acquisition; the sentence names both requests' times.
    expect(order.eventIds.map((id) => [run.events[id]!.kind, run.events[id]!.actor])).toEqual([
      ['lock.request', 'B'],
      ['lock.request', 'A'],
      ['lock.acquired', 'A'],
    ]);
    const wait = run.verdict('bounded-wait');
    expect(wait.holds).toBe(false);
    expect(wait.explanation).toMatch(/longer than the bound of 6 s/);
  });

  it('hold under the fair lock: each waiter in its turn', () => {
    const run = runYaml(scenario(clients('fair-lock'), checks));
    expect(run.verdict('served-in-order').holds).toBe(true);
    expect(run.verdict('bounded-wait').holds).toBe(true);
    // The slow poller C gets its turn early, not after everybody's eight jobs.
    const c = run.of('lock.acquired', 'C')[0]!;
    expect(c.at).toBeLessThan(4000);
  });
});

describe('calm-when-down', () => {
  const clients = (breaker: string) =>
    ['A', 'B', 'C'].map(
      (id) =>
        `{ id: ${id}, recipe: lease-with-token, ttl: 2s, work: 500ms, jobs: 10, timeout: 200ms, retry: { policy: fixed, delay: 100ms }${breaker} }`,
    );
  const outage =
    'script:\n  - { at: 1s, do: crash, target: r1 }\n  - { at: 9s, do: restart, target: r1 }\nexpect: { invariant: calm-when-down, outcome: holds }\n';

  it('breaks when clients retry a dead Redis at full speed', () => {
    const run = runYaml(scenario(clients(''), outage));
    const v = run.verdict('calm-when-down');
    expect(v.holds).toBe(false);
    expect(v.atMs).toBe(9000);
    expect(v.eventIds.map((id) => run.events[id]!.kind)).toEqual(['process.crash', 'net.send', 'net.send']);
  });

  it('holds when a circuit breaker fails fast and sends one trial per cool-down', () => {
    const run = runYaml(scenario(clients(', breaker: { failures: 3, coolDown: 2s }'), outage));
    expect(run.verdict('calm-when-down').holds).toBe(true);
    expect(run.verdict('progress').holds).toBe(true);
  });
});
