import { z } from 'zod';
import type { ServicesSpec } from '../actors/world';
import { positiveDurationMs } from './duration';
import { actorId } from './ids';

/**
 * The lock services a scenario may offer besides Redis:
 *
 * ```yaml
 * leaseService: { id: etcd, label: etcd }          # clients with recipe: lease-service
 * dbLock: { id: db, mode: for-update, idleTimeout: 5s }   # clients with recipe: db-lock
 * ```
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

interface WithServices {
  leaseService?: z.output<typeof leaseServiceSection> | undefined;
  dbLock?: z.output<typeof dbLockSection> | undefined;
  clients: readonly { recipe?: string | undefined }[];
}

/** The services as the world builds them. */
export function servicesSpec(s: WithServices): ServicesSpec {
  return {
    ...(s.leaseService ? { lease: { id: s.leaseService.id, label: s.leaseService.label ?? s.leaseService.id } } : {}),
    ...(s.dbLock ? { db: { id: s.dbLock.id, label: s.dbLock.label ?? s.dbLock.id, mode: s.dbLock.mode, idleTimeoutMs: s.dbLock.idleTimeout ?? null } } : {}),
  };
}

type Path = (string | number)[];

/** The services' ids, where each is written (they are actors: targets for pause, crash, clock-jump). */
export function serviceIds(s: WithServices): [string, Path][] {
  return [
    ...(s.leaseService ? [[s.leaseService.id, ['leaseService', 'id']] as [string, Path]] : []),
    ...(s.dbLock ? [[s.dbLock.id, ['dbLock', 'id']] as [string, Path]] : []),
  ];
}

/** A service recipe needs its service; a setting for the other mode means nothing. */
export function checkServices(s: WithServices, report: (path: Path, message: string, hint?: string) => void): void {
  s.clients.forEach((c, i) => {
    if (c.recipe === 'lease-service' && !s.leaseService) report(['clients', i, 'recipe'], "recipe 'lease-service' needs a lease service", 'add leaseService: { id: etcd } to the scenario');
    if (c.recipe === 'db-lock' && !s.dbLock) report(['clients', i, 'recipe'], "recipe 'db-lock' needs a database lock table", 'add dbLock: { id: db, mode: expiry-column } (or mode: for-update) to the scenario');
  });
  if (s.dbLock?.idleTimeout !== undefined && s.dbLock.mode !== 'for-update') {
    report(['dbLock', 'idleTimeout'], 'idleTimeout applies to a row lock held by an open transaction', 'set mode: for-update, or remove idleTimeout (an expiry-column lock expires by its TTL)');
  }
}
