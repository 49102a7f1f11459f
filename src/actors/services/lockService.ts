import type { Process } from '../process/process';

/**
 * A lock server other than Redis: an etcd-style lease service or a database lock table. Both
 * speak the same small protocol, so one recipe (recipes/serviceRecipe.ts) drives either:
 * - `LOCK key value ttlMs` answers a fencing token (a number) or null when the lock is taken;
 *   a service may also hold the answer back until the lock is free (a row lock's queue).
 * - `KEEPALIVE key value ttlMs` answers 1 while `value` still holds `key`, else 0.
 * - `UNLOCK key value` answers 1 when it let go of `value`'s lock, else 0.
 */
export interface LockService {
  readonly id: string;
  readonly process: Process;
  /** Handles one request that arrived from client `from` as message `msg`; `respond` may run later. */
  handle(argv: readonly string[], from: string, msg: number, respond: (answer: number | null) => void): void;
  /** What the request looks like on the arrow: the service's own words for it. */
  label(argv: readonly string[]): string;
}

/** Something a service answers, as the trace shows it. */
export function describeAnswer(answer: number | null): string {
  return answer === null ? '(nil)' : `(integer) ${answer}`;
}
