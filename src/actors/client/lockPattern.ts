import type { LockPattern } from '../../sim/traceEvents';
import type { ClientSpec } from './clientSpec';
import type { RecipeName } from '../recipes/catalog';

/** Recipes whose keys several clients hold at once by design, and how each one shares. */
const SHARING: Partial<Record<RecipeName, NonNullable<LockPattern['shares']>>> = {
  'read-lock': 'reader',
  'read-lock-two-step': 'reader',
  'write-lock': 'writer',
  'write-lock-two-step': 'writer',
  semaphore: 'semaphore',
};

/**
 * What run.start records of a client's lock pattern for the checkers, or nothing for a plain
 * exclusive lock (and for a step client, which has no recipe of its own).
 */
export function lockPatternOf(client: ClientSpec): { lock: LockPattern } | Record<string, never> {
  if (client.steps !== undefined) return {};
  const shares = SHARING[client.recipe];
  const fair = client.recipe === 'fair-lock';
  const breaker = client.breaker !== undefined;
  if (shares === undefined && !fair && !breaker) return {};
  const lock: LockPattern = { keys: [...client.keys] };
  if (shares !== undefined) lock.shares = shares;
  if (shares === 'semaphore') lock.permits = client.permits ?? 1;
  if (fair) lock.fair = true;
  if (breaker) lock.breaker = true;
  return { lock };
}
