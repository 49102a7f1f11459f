import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';
import { FAIR_ACQUIRE, RW_READ_ACQUIRE, RW_RELEASE, RW_WRITE_ACQUIRE, SEMAPHORE_ACQUIRE } from './patternScripts';

beforeAll(loadTestScripts);

function scenario(clients: string[], extra = ''): string {
  return `id: t\ntitle: t\nseed: 1\nhorizon: 30s\nnetwork: { latency: 1ms }\n${extra}clients:\n${clients.map((c) => `  - ${c}`).join('\n')}\nresource: { id: doc }\n`;
}

describe('semaphore', () => {
  it('frees a crashed holder’s permit when its lease runs out, not before', () => {
    const holder = (id: string, startAt: string) =>
      `{ id: ${id}, recipe: semaphore, permits: 1, ttl: 3s, work: 1s, startAt: ${startAt}, retry: { policy: fixed, delay: 100ms } }`;
    const run = runYaml(
      scenario([holder('A', '0ms'), holder('B', '10ms')], 'script:\n  - { at: 500ms, do: crash, target: A }\n'),
    );
    const b = run.of('lock.acquired', 'B')[0]!;
    // A took its permit at about 2 ms for 3 s; B gets it on its first try after that.
    expect(b.at).toBeGreaterThanOrEqual(3000);
    expect(b.at).toBeLessThan(3200);
  });
});

describe('semaphore with holders of different lease lengths', () => {
  it('keeps the long holder’s permit after a short holder came and went', () => {
    const c = (id: string, ttl: string, work: string, startAt: string) =>
      `{ id: ${id}, recipe: semaphore, permits: 2, ttl: ${ttl}, work: ${work}, startAt: ${startAt}, retry: { policy: fixed, delay: 100ms } }`;
    // A holds for 5 s of a 10 s lease; B's 1 s lease must not take the whole set with it.
    const run = runYaml(
      scenario([
        c('A', '10s', '5s', '0ms'),
        c('B', '1s', '200ms', '100ms'),
        c('C', '10s', '3s', '2s'),
        c('D', '10s', '3s', '2s'),
      ]),
    );
    expect(run.verdict('within-permits').holds).toBe(true);
    expect(run.of('lock.acquired', 'D')[0]!.at).toBeGreaterThan(5000);
  });
});

describe('fair lock', () => {
  it('drops a crashed waiter from the queue once its entry times out, and serves the next', () => {
    const c = (id: string, startAt: string) =>
      `{ id: ${id}, recipe: fair-lock, ttl: 2s, work: 1s, startAt: ${startAt}, retry: { policy: fixed, delay: 100ms } }`;
    const run = runYaml(
      scenario([c('A', '0ms'), c('B', '10ms'), c('C', '20ms')], 'script:\n  - { at: 500ms, do: crash, target: B }\n'),
    );
    expect(run.of('lock.acquired').map((e) => e.actor)).toEqual(['A', 'C']);
    const cGot = run.of('lock.acquired', 'C')[0]!.at;
    // B last asked just before 500 ms and stays queued for a lease length (2 s) after that:
    // C, behind it, waits until then although A let go at about 1 s.
    expect(cGot).toBeGreaterThan(2400);
    expect(cGot).toBeLessThan(2700);
  });
});

describe('read-write lock release', () => {
  it('lets a reader that entered twice leave once and still hold its second entry, so a writer waits', () => {
    // The reader enters twice (a nested read, as Redisson's RReadWriteLock counts it) and leaves
    // once at 1 s; the writer asks at 1.5 s, while the second entry is still held, and again
    // every 500 ms: it may only get in after the reader's last leave at 3 s.
    const eval1 = (script: string, ...args: string[]) => `[EVAL, ${JSON.stringify(script)}, 1, rw, ${args.join(', ')}]`;
    const reader = `{ id: R, steps: [
      { redis: ${eval1(RW_READ_ACQUIRE, "'{value}'", '10000')}, as: acquire },
      { redis: ${eval1(RW_READ_ACQUIRE, "'{value}'", '10000')}, as: acquire },
      { wait: 1s },
      { redis: ${eval1(RW_RELEASE, "'{value}'")}, as: release },
      { wait: 2s },
      { redis: ${eval1(RW_RELEASE, "'{value}'")}, as: release } ] }`;
    const writer = `{ id: W, startAt: 1500ms, retry: { policy: fixed, delay: 500ms }, steps: [
      { redis: ${eval1(RW_WRITE_ACQUIRE, "'{value}'", '10000')}, as: acquire } ] }`;
    const run = runYaml(scenario([reader, writer]));
    const releases = run
      .of('step.done', 'R')
      .filter((e) => e.data.index === 3 || e.data.index === 5)
      .map((e) => e.at);
    expect(releases).toHaveLength(2);
    expect(run.of('lock.busy', 'W').length).toBeGreaterThan(0);
    expect(run.of('lock.acquired', 'W')[0]!.at).toBeGreaterThanOrEqual(releases[1]!);
  });
});

describe('circuit breaker', () => {
  const client =
    '{ id: A, recipe: lease-with-token, ttl: 2s, work: 500ms, jobs: 3, timeout: 200ms, retry: { policy: fixed, delay: 100ms }, breaker: { failures: 3, coolDown: 2s } }';
  const outage = 'script:\n  - { at: 0ms, do: crash, target: r1 }\n  - { at: 5s, do: restart, target: r1 }\n';

  it('opens after three unanswered tries, fails fast without calling Redis, and closes after a good trial', () => {
    const run = runYaml(scenario([client], outage));
    const lane = run.of('actor.state', 'A').map((e) => `${e.at} ${e.data.state}`);
    // Three tries of 200 ms + 100 ms pauses, then open; a trial at 2 s intervals until Redis is back.
    expect(lane.slice(0, 8)).toEqual([
      '0 idle',
      '0 acquiring',
      '200 retrying',
      '300 acquiring',
      '500 retrying',
      '600 acquiring',
      '800 circuit-open',
      '2800 half-open',
    ]);
    // The trial at 2.8 s goes unanswered (open again); the one at 5 s reaches the restarted Redis.
    expect(lane.slice(8, 12)).toEqual(['3000 circuit-open', '5000 half-open', '5002 acquiring', '5002 working']);
    expect(run.of('lock.acquired', 'A').length).toBe(3);
    // While open, the client sends nothing at all to r1: three tries, then one trial per cool-down.
    const sends = run
      .of('net.send', 'A')
      .filter((e) => e.data.to === 'r1' && e.at <= 5000)
      .map((e) => e.at);
    expect(sends).toEqual([0, 300, 600, 2800, 5000]);
  });

  it('starts closed again after the client restarts', () => {
    const outageWithRestart =
      'script:\n  - { at: 0ms, do: crash, target: r1 }\n  - { at: 1s, do: crash, target: A }\n  - { at: 1500ms, do: restart, target: A }\n  - { at: 5s, do: restart, target: r1 }\n';
    const run = runYaml(scenario([client], outageWithRestart));
    const lane = run.of('actor.state', 'A').map((e) => `${e.at} ${e.data.state}`);
    expect(lane).toContain('1500 acquiring');
    expect(lane).toContain('2300 circuit-open');
  });
});

describe('the lessons', () => {
  // A lesson promises the script it shows is the one the simulator runs: a change to either must show in both.
  const shown = (file: string) =>
    [...readFileSync(`lessons/${file}`, 'utf8').matchAll(/```lua\n([\s\S]*?)\n```/g)].map((m) => m[1]);

  it('show the pattern scripts exactly as the recipes send them', () => {
    expect(shown('33-fair-lock.md')).toContain(FAIR_ACQUIRE);
    expect(shown('34-read-write-lock.md')).toEqual([RW_READ_ACQUIRE, RW_WRITE_ACQUIRE]);
    expect(shown('35-semaphore.md')).toEqual([SEMAPHORE_ACQUIRE]);
  });
});
