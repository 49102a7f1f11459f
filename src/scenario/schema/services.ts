import type { ServicesSpec } from '../../actors/world';
import type { dbLockSection, leaseServiceSection } from './serviceSchema';
import type { z } from 'zod';
import type { Path } from '../diagnostic';

/**
 * What a scenario's lock services mean once parsed (serviceSchema.ts holds their schema): the
 * world's services and the checks across fields. Apart from the schema so that the simulator's
 * worker does not bring the schema library with it.
 */

interface WithServices {
  leaseService?: z.output<typeof leaseServiceSection> | undefined;
  dbLock?: z.output<typeof dbLockSection> | undefined;
  clients: readonly { recipe?: string | undefined }[];
}

/** The services as the world builds them. */
export function servicesSpec(s: WithServices): ServicesSpec {
  return {
    ...(s.leaseService ? { lease: { id: s.leaseService.id, label: s.leaseService.label ?? s.leaseService.id } } : {}),
    ...(s.dbLock
      ? {
          db: {
            id: s.dbLock.id,
            label: s.dbLock.label ?? s.dbLock.id,
            mode: s.dbLock.mode,
            idleTimeoutMs: s.dbLock.idleTimeout ?? null,
          },
        }
      : {}),
  };
}

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
    if (c.recipe === 'lease-service' && !s.leaseService)
      report(
        ['clients', i, 'recipe'],
        "recipe 'lease-service' needs a lease service",
        'add leaseService: { id: etcd } to the scenario',
      );
    if (c.recipe === 'db-lock' && !s.dbLock)
      report(
        ['clients', i, 'recipe'],
        "recipe 'db-lock' needs a database lock table",
        'add dbLock: { id: db, mode: expiry-column } (or mode: for-update) to the scenario',
      );
  });
  if (s.dbLock?.idleTimeout !== undefined && s.dbLock.mode !== 'for-update') {
    report(
      ['dbLock', 'idleTimeout'],
      'idleTimeout applies to a row lock held by an open transaction',
      'set mode: for-update, or remove idleTimeout (an expiry-column lock expires by its TTL)',
    );
  }
}
