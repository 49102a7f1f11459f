import type { Prng } from '../../sim/prng';

/**
 * When a client finds the lock taken, how long it waits before trying again, and when it gives up.
 * - none: one attempt only.
 * - fixed: `delayMs` every time.
 * - exponential: `delayMs`, then twice that, four times... capped at `maxDelayMs`.
 * Each wait adds a random `[0, jitterMs]` so a crowd of clients does not retry in lockstep (the
 * thundering herd). With `fullJitter` the whole wait is drawn instead, uniformly in `[0, delay]`
 * ("full jitter" in Marc Brooker's AWS comparison), so no two clients share even the fixed part.
 * `attempts` bounds the total number of tries; null means never give up.
 */
export interface RetryPolicy {
  policy: 'none' | 'fixed' | 'exponential';
  delayMs: number;
  maxDelayMs: number;
  jitterMs: number;
  attempts: number | null;
  /**
   * Where the jitter's randomness comes from. `own`: the client's own stream. `clock-second`: a
   * generator seeded with the wall-clock second the client started in, a bug copied from guides:
   * clients that start in the same second draw the same "random" delays, so two that fail together
   * retry together, again and again.
   */
  jitterSeed?: 'own' | 'clock-second';
  /** Draw the whole wait in `[0, delay]` instead of adding `[0, jitterMs]` to the delay. */
  fullJitter?: boolean;
}

export const DEFAULT_RETRY: RetryPolicy = {
  policy: 'fixed',
  delayMs: 500,
  maxDelayMs: 500,
  jitterMs: 0,
  attempts: null,
};

/**
 * How long to wait after failed attempt number `attempt` (1 for the first), or null to give up.
 * The jitter is drawn from the client's own stream, so it is part of the run's seed.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random: Prng): number | null {
  if (policy.policy === 'none') return null;
  if (policy.attempts !== null && attempt >= policy.attempts) return null;
  const base =
    policy.policy === 'fixed' ? policy.delayMs : Math.min(policy.maxDelayMs, policy.delayMs * 2 ** (attempt - 1));
  if (policy.fullJitter) return random.int(0, base);
  return base + (policy.jitterMs > 0 ? random.int(0, policy.jitterMs) : 0);
}

/**
 * The random stream a client's retry jitter draws from. Its own fork by default, so adding a
 * client reshuffles nobody else; with `clock-second`, one stream per start second, shared by every
 * client that starts in that second, as a generator seeded with the wall clock would be.
 */
export function jitterStream(root: Prng, clientId: string, startAtMs: number, policy: RetryPolicy): Prng {
  return policy.jitterSeed === 'clock-second'
    ? root.fork(`retry:clock-second:${Math.floor(startAtMs / 1000)}`)
    : root.fork(`retry:${clientId}`);
}

/**
 * How a try at the lock failed: `busy` (someone holds it, or the server cannot take it just
 * now), `timeout` (no answer in time: the outcome is unknown) or `error` (an error reply that
 * says the command itself is wrong: trying it again would get the same answer).
 */
export type FailedTry = 'busy' | 'timeout' | 'error';

/**
 * One client's tries at a lock, for both client kinds (recipe and step list): it counts the
 * failures in a row and decides, by the retry policy, whether and when to try again. This is
 * the one place where retrying and giving up are decided; each machine only chooses where
 * giving up leads (failed, or on without the lock).
 */
export class Tries {
  /** Failed tries since the last success. */
  failures = 0;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly random: Prng,
  ) {}

  /** The last try got the lock, or the client gave up: the next failure starts counting again. */
  reset(): void {
    this.failures = 0;
  }

  /**
   * The last try failed: how long to wait before the next one, or null to give up (then
   * `failures` still counts the tries, for the trace, until `reset`). An error gives up at
   * once, and so does a caller that never retries (`retry` false: a step that says skip or stop).
   */
  failed(failure: FailedTry, retry = true): number | null {
    this.failures++;
    if (failure === 'error' || !retry) return null;
    return retryDelayMs(this.policy, this.failures, this.random);
  }
}
