import type { ChildProcess } from 'node:child_process';
import type { Scenario } from '../scenario/schema/schema';
import type { Children } from './children';
import type { ClientWiring } from './clientConfig';
import { RealLeaseService } from './etcd';
import type { LeaseChange } from './leaseWatcher';
import { RealDatabase } from './postgres';

/**
 * The lock services other than Redis a scenario names, as real processes: its lease service an
 * etcd (etcd.ts), its database lock table a PostgreSQL (postgres.ts). What the harness asks of
 * them: where clients reach them, their processes for the script's faults, their leases.
 */
export class RealLockServices {
  private constructor(
    private leaseService: RealLeaseService | undefined,
    private readonly database: RealDatabase | undefined,
  ) {}

  /** Starts what `scenario` names; `jumped`: the ids whose clock the script steps. */
  static async start(
    children: Children,
    scenario: Scenario,
    keys: ReadonlySet<string>,
    jumped: ReadonlySet<string>,
    emit: (server: string, change: LeaseChange, atMs: number) => void,
  ): Promise<RealLockServices> {
    const db = scenario.dbLock;
    const [leaseService, database] = await Promise.all([
      RealLeaseService.start(children, scenario.leaseService, keys, emit),
      RealDatabase.start(children, db, db !== undefined && jumped.has(db.id), emit),
    ]);
    return new RealLockServices(leaseService, database);
  }

  wiring(): Pick<ClientWiring, 'leaseService' | 'dbLock'> {
    return {
      leaseService: this.leaseService?.wiring ?? null,
      dbLock: this.database ? { id: this.database.id, port: this.database.port } : null,
    };
  }

  has(id: string): boolean {
    return this.leaseService?.id === id || this.database?.id === id;
  }

  process(id: string): ChildProcess | undefined {
    return this.leaseService?.id === id ? this.leaseService.process : this.database?.process;
  }

  /** A new etcd on the crashed one's data (a database restart is refused: support.ts). */
  async restart(): Promise<void> {
    this.leaseService = await this.leaseService?.restart();
  }

  /** Steps the database's clock (an etcd's is refused: support.ts). */
  jumpClock(byRealMs: number): Promise<void> {
    return this.database!.jumpClock(byRealMs);
  }

  async settled(): Promise<void> {
    await Promise.all([this.leaseService?.leases.settled(), this.database?.leases.settled()]);
  }

  close(): void {
    this.leaseService?.leases.stop();
    this.database?.close();
  }
}
