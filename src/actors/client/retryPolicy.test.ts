import { describe, expect, it } from 'vitest';
import { Prng } from '../../sim/prng';
import { error } from '../../redis/reply';
import { failure } from '../recipes/recipe';
import { retryDelayMs, Tries, type RetryPolicy } from './retryPolicy';

const policy = (p: Partial<RetryPolicy>): RetryPolicy => ({
  policy: 'fixed',
  delayMs: 100,
  maxDelayMs: 1000,
  jitterMs: 0,
  attempts: null,
  ...p,
});

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

describe('full jitter', () => {
  it('draws the whole wait between zero and the backoff delay, so clients that failed together spread over all of it', () => {
    const p = policy({ policy: 'exponential', fullJitter: true, jitterMs: 400 });
    const delays = Array.from({ length: 50 }, (_, i) => retryDelayMs(p, 3, Prng.fromSeed(1).fork(`client:${i}`))!);
    // Attempt 3 backs off to 400 ms; the jitter setting is not added on top.
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(0);
    for (const d of delays) expect(d).toBeLessThanOrEqual(400);
    expect(Math.min(...delays)).toBeLessThan(100);
    expect(Math.max(...delays)).toBeGreaterThan(300);
  });
});

describe('Tries, the one place both client kinds decide to retry or give up', () => {
  it('waits by the policy after a taken lock or silence, and counts the failures until reset', () => {
    const tries = new Tries(policy({ attempts: 3 }), Prng.fromSeed(1));
    expect([tries.failed('busy'), tries.failed('timeout'), tries.failed('busy')]).toEqual([100, 100, null]);
    expect(tries.failures).toBe(3);
    tries.reset();
    expect(tries.failed('busy')).toBe(100);
  });

  it('gives up at once on an error reply, and when the caller never retries', () => {
    expect(new Tries(policy({}), Prng.fromSeed(1)).failed('error')).toBeNull();
    expect(new Tries(policy({}), Prng.fromSeed(1)).failed('busy', false)).toBeNull();
  });
});

describe('what a failed acquire reply means', () => {
  const reply = (value: string) => failure({ ok: true, reply: error(value) });

  it('an error that says the command is wrong is an error, with its text', () => {
    expect(reply('ERR syntax error')).toEqual({ ok: false, reason: 'error', error: 'ERR syntax error' });
    expect(reply('WRONGTYPE Operation against a key holding the wrong kind of value')).toMatchObject({
      reason: 'error',
    });
  });

  it('an error naming a passing condition of the server means "not now", like a taken lock', () => {
    expect(reply('NOREPLICAS Not enough good replicas to write.')).toMatchObject({ reason: 'busy' });
    expect(reply("READONLY You can't write against a read only replica.")).toMatchObject({ reason: 'busy' });
    expect(failure({ ok: false, reason: 'timeout' })).toMatchObject({ reason: 'timeout' });
  });
});
