import type { ClientStep } from './clientSteps';
import type { RecipeName } from '../recipes/catalog';
import type { RedlockOptions } from '../recipes/redlock';
import type { RetryPolicy } from './retryPolicy';
import type { BreakerOptions } from './circuitBreakerMachine';

/**
 * One client, already resolved from its scenario entry (durations in ms, ids checked, defaults
 * filled in by scenario/build.ts). The client classes read it directly: a new client option is
 * added to the schema, to the resolution in build.ts and here, and read where it is used.
 */
export interface ClientSpec {
  id: string;
  label: string;
  recipe: RecipeName;
  /** The Redis node(s) it talks to: one, or every master for Redlock. */
  nodes: string[];
  /** Lock keys in the order it takes them. */
  keys: string[];
  ttlMs: number;
  /** Work time while holding the lock; null means it never finishes (a wedged worker). */
  workMs: number | null;
  startAtMs: number;
  retry: RetryPolicy;
  /** Local-clock ms before a request counts as unanswered, or null to wait forever. */
  timeoutMs: number | null;
  /** Watchdog period, or null without a watchdog. */
  renewEveryMs: number | null;
  /** The watchdog stops renewing (and the job is given up) once the lock has been held this long; absent: no cap. */
  maxHoldMs?: number;
  /** On an unanswered renewal: stop at once, or retry until the local lease deadline passes. */
  onRenewFail: 'stop' | 'retry';
  /** Take the (same) lock this many more times while holding it, like a nested call would. */
  reenter: number;
  /** How many times to take the lock and do the job. */
  jobs: number;
  /** Think time between the two commands of a two-step recipe. */
  gapMs: number;
  /** Ask for fencing tokens even if the resource does not check them. */
  tokens: boolean;
  /** How fast this client's clock runs, in parts per million (10000 = 1% fast). */
  driftPpm: number;
  /** When the lock cannot be had: refuse to work (consistency), or work without it (availability). */
  onUnavailable: 'refuse' | 'proceed';
  redlock: RedlockOptions;
  /** A semaphore's size: how many clients may hold its key at once (semaphore recipe only). */
  permits?: number;
  /** A circuit breaker around the client's acquire calls (see circuitBreakerMachine.ts). */
  breaker?: BreakerOptions;
  /** An explicit step list: when present the client follows it and `recipe` is not used. */
  steps?: readonly ClientStep[];
}
