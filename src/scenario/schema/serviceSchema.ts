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
  id: id.meta({ description: "The lease service's name on its lane; script steps target it.", examples: ['etcd'] }),
  label: z
    .string()
    .optional()
    .meta({ description: 'The name on its lane, if not the id.', examples: ['etcd cluster'] }),
});

export const dbLockSection = z.strictObject({
  id: id.meta({ description: "The database's name on its lane; script steps target it.", examples: ['db'] }),
  label: z
    .string()
    .optional()
    .meta({ description: 'The name on its lane, if not the id.', examples: ['Postgres'] }),
  /** expiry-column: unique row + expires_at (a lease); for-update: a row lock in an open transaction. */
  mode: z
    .enum(['expiry-column', 'for-update'])
    .default('expiry-column')
    .meta({
      description:
        '`expiry-column`: a unique row with an expires_at column (a lease, the default); `for-update`: a row lock held in an open transaction.',
      examples: ['for-update'],
    }),
  /** for-update: idle_in_transaction_session_timeout (default: none, as in Postgres). */
  idleTimeout: positiveDurationMs.optional().meta({
    description:
      "for-update: idle_in_transaction_session_timeout, after which the database ends an idle holder's transaction; left out, never, as in Postgres.",
    examples: ['5s'],
  }),
});
