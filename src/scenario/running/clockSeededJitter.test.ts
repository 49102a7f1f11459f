import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

/**
 * Two Redlock clients that split the masters 2–2 (the fifth is down) and must retry until one
 * of them goes first. Jitter drawn from each client's own stream breaks the tie; jitter from a
 * generator seeded with the wall-clock second gives both the same delays, so they collide on
 * every round until their attempts run out.
 */
const splitVote = (jitterSeed: 'own' | 'clock-second') => `
id: split-vote
title: Split vote
seed: 3
redis: { nodes: [{ id: r1 }, { id: r2 }, { id: r3 }, { id: r4 }, { id: r5 }] }
network:
  links:
    - { from: A, to: r3, latency: 6ms }
    - { from: A, to: r4, latency: 6ms }
    - { from: B, to: r1, latency: 6ms }
    - { from: B, to: r2, latency: 6ms }
clients:
  - { id: A, recipe: redlock, ttl: 10s, retry: { policy: fixed, delay: 200ms, jitter: 100ms, jitterSeed: ${jitterSeed} } }
  - { id: B, recipe: redlock, ttl: 10s, retry: { policy: fixed, delay: 200ms, jitter: 100ms, jitterSeed: ${jitterSeed} } }
resource: { id: espresso }
script: [{ at: 0s, do: crash, target: r5 }]
checks: { progressWithin: 2s }
`;

beforeAll(loadTestScripts);

describe('retry jitter seeded from the clock', () => {
  it('gives two clients that start in the same second the same delays, so they split the vote until they give up', () => {
    const run = runYaml(splitVote('clock-second'));
    const retriesAt = (who: string) => run.of('lock.request', who).map((e) => e.at);
    expect(retriesAt('A').length).toBe(11);
    expect(retriesAt('A')).toEqual(retriesAt('B'));
    // The delays still vary from round to round: it looks random, it is just the same for both.
    const gaps = retriesAt('A')
      .slice(1)
      .map((t, i) => t - retriesAt('A')[i]!);
    expect(new Set(gaps).size).toBeGreaterThan(1);
    expect(run.of('lock.acquired')).toEqual([]);
    expect(run.of('lock.failed').map((e) => e.actor)).toEqual(['A', 'B']);
    expect(run.verdict('progress').holds).toBe(false);
  });

  it('lets each client draw its own jitter by default, and one of them goes first', () => {
    const run = runYaml(splitVote('own'));
    expect(
      run
        .of('lock.acquired')
        .map((e) => e.actor)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(run.verdict('progress').holds).toBe(true);
  });
});
