import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../testing/testKit';
import { lockMetrics, percentiles } from './metrics';

beforeAll(loadTestScripts);

const pausedBarista = `
id: paused
title: The paused barista
seed: 7
clients:
  - { id: A, label: Barista A, recipe: lease-with-token, ttl: 10s, work: 2s }
  - { id: B, label: Barista B, recipe: lease-with-token, ttl: 10s, work: 2s, startAt: 11s }
resource: { id: espresso, label: Espresso machine }
script:
  - { at: 2s, do: pause, target: A, for: 15s }
`;

describe('lock metrics from a trace', () => {
  it('counts the paused barista: two clean acquisitions, one lease lost under its holder, the pause lined up', () => {
    const m = lockMetrics(runYaml(pausedBarista).events);
    expect(m.attempts).toBe(2);
    expect(m.acquired).toBe(2);
    expect(m.successRate).toBe(1);
    expect(m.lostLeases).toBe(1);
    expect(m.series.lostLeases[0]).toMatchObject({ client: 'A' });
    // Redis ends A's lease at about 10 s, while A is still paused (2 s to 17 s).
    expect(m.series.lostLeases[0]!.atMs).toBeGreaterThan(9_900);
    expect(m.series.pauses).toEqual([{ actor: 'A', startMs: 2_000, endMs: 17_000 }]);
    expect(m.fencingRejections).toBe(0);
  });

  it('counts a fencing rejection when the machine checks tokens, and no rejection when it does not', () => {
    const fenced = lockMetrics(runYaml(pausedBarista, { fencing: true }).events);
    expect(fenced.fencingRejections).toBe(1);
    expect(fenced.series.fencingRejections[0]).toMatchObject({ client: 'A' });
  });

  it('counts a watchdog that gives up its lease as a renewal failure, not as a lost lease', () => {
    const m = lockMetrics(
      runYaml(`
id: renew-cut
title: cut
seed: 31
clients:
  - { id: A, recipe: watchdog, ttl: 3s, work: 6s, timeout: 300ms, onRenewFail: stop }
resource: { id: espresso }
script:
  - { at: 1900ms, do: partition, groups: [[A], [r1]] }
  - { at: 3s, do: heal }
`).events,
    );
    expect(m.renewalFailures).toBe(1);
    expect(m.lostLeases).toBe(0);
  });

  it('shows the thundering herd: a fixed delay wastes far more attempts than backoff with jitter', () => {
    const run = (file: string) => lockMetrics(runYaml(readFileSync(`lessons/scenarios/${file}`, 'utf8')).events);
    const fixed = run('herd-fixed.yaml');
    const backoff = run('herd-backoff.yaml');
    expect(fixed.acquired).toBe(50);
    expect(backoff.acquired).toBe(50);
    expect(fixed.peakWaiting).toBe(50);
    expect(fixed.refused).toBeGreaterThan(3 * backoff.refused);
    expect(fixed.successRate!).toBeLessThan(backoff.successRate!);
  });
});

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentiles(values)).toEqual({ p50: 50, p95: 95, p99: 99, max: 100 });
    expect(percentiles([7])).toEqual({ p50: 7, p95: 7, p99: 7, max: 7 });
  });
});

describe('lock metrics when a client crashes', () => {
  it('stops counting a crashed client as waiting or as a holder whose lease is lost', () => {
    const m = lockMetrics(
      runYaml(`
id: crash
title: crash
seed: 7
clients:
  - { id: A, recipe: lease-with-token, ttl: 3s, work: 5s }
  - { id: B, recipe: lease-with-token, ttl: 3s, work: 1s, startAt: 500ms }
resource: { id: espresso }
script:
  - { at: 1s, do: crash, target: A }
  - { at: 1500ms, do: crash, target: B }
`).events,
    );
    // A's lease runs out at 3 s, after A crashed: nobody was still relying on it.
    expect(m.lostLeases).toBe(0);
    // B was waiting from 0.5 s until it crashed at 1.5 s; afterwards nobody waits.
    expect(m.series.waiting.at(-1)).toEqual({ atMs: 1_500, count: 0 });
  });
});
