import { describe, expect, it } from 'vitest';
import { Prng } from '../sim/prng';
import { retryDelayMs, type RetryPolicy } from './retryPolicy';

const policy = (p: Partial<RetryPolicy>): RetryPolicy => ({ policy: 'fixed', delayMs: 100, maxDelayMs: 1000, jitterMs: 0, attempts: null, ...p });

describe('retry policies', () => {
  it('gives up at once with none', () => {
    expect(retryDelayMs(policy({ policy: 'none' }), 1, Prng.fromSeed(1))).toBeNull();
  });

  it('waits the same time with fixed, until the attempts run out', () => {
    const p = policy({ attempts: 3 });
    const r = Prng.fromSeed(1);
    expect([1, 2, 3].map((n) => retryDelayMs(p, n, r))).toEqual([100, 100, null]);
  });

  it('doubles with exponential, up to the cap', () => {
    const p = policy({ policy: 'exponential' });
    const r = Prng.fromSeed(1);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(p, n, r))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('spreads a crowd with jitter: twenty clients do not all retry at the same moment', () => {
    const p = policy({ jitterMs: 100 });
    const delays = Array.from({ length: 20 }, (_, i) => retryDelayMs(p, 1, Prng.fromSeed(1).fork(`client:${i}`)));
    expect(new Set(delays).size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(100);
    for (const d of delays) expect(d).toBeLessThanOrEqual(200);
  });
});
