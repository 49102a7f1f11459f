import { z } from 'zod';
import { positiveDurationMs } from './duration';
import { actorId } from './ids';

/**
 * The lock services a scenario may offer besides Redis:
 *
 * ```yaml
 * leaseService: { id: etcd, label: etcd }          # clients with recipe: lease-service
 * dbLock: { id: db, mode: for-update, idleTimeout: 5s }   # clients with recipe: db-lock
 * ```
 *
 * What they mean to the world, and the checks across fields, are in services.ts.
 */
const id = actorId;

export const leaseServiceSection = z.strictObject({
  id,
  label: z.string().optional(),
});

export const dbLockSection = z.strictObject({
  id,
  label: z.string().optional(),
  /** expiry-column: unique row + expires_at (a lease); for-update: a row lock in an open transaction. */
  mode: z.enum(['expiry-column', 'for-update']).default('expiry-column'),
  /** for-update: idle_in_transaction_session_timeout (default: none, as in Postgres). */
  idleTimeout: positiveDurationMs.optional(),
});
