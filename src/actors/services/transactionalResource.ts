import type { Sim } from '../../sim/sim';
import type { ReadResult, Resource } from '../resources/resource';
import type { DbLockTable, TransactionHooks } from './dbLockTable';

interface Pending {
  token: number | null;
  basis: ReadResult | null;
}

/**
 * The protected table when the lock is a `SELECT ... FOR UPDATE` row lock in the same database:
 * a holder's write joins its open transaction and lands only when it commits. A write from a
 * session whose transaction is gone (killed while idle, or never begun) fails, and writes
 * buffered in a transaction that is rolled back never happen. That is what makes the row lock
 * safe where a lease is not: the work and the lock commit or vanish together.
 */
export class TransactionalResource implements Resource, TransactionHooks {
  private readonly pending = new Map<string, Pending[]>();

  constructor(
    private readonly sim: Sim,
    private readonly inner: Resource,
    private readonly db: DbLockTable,
  ) {
    db.transactions = this;
  }

  get id(): string {
    return this.inner.id;
  }
  get kind() {
    return this.inner.kind;
  }
  get process() {
    return this.inner.process;
  }
  get readsFirst(): boolean {
    return this.inner.readsFirst;
  }
  get canFence(): boolean {
    return this.inner.canFence;
  }

  read(from: string): ReadResult {
    this.db.touch(from);
    return this.inner.read(from);
  }

  describeRequest(from: string, token: number | null) {
    return this.inner.describeRequest(from, token);
  }

  /** Buffers the write in `from`'s open transaction; refuses it when there is none. */
  act(from: string, token: number | null, basis: ReadResult | null): boolean {
    if (!this.db.inTransaction(from)) {
      this.refuse(
        from,
        token,
        'no open transaction: the session was killed (or never took the row lock), so this UPDATE fails',
      );
      return false;
    }
    this.db.touch(from);
    this.pending.set(from, [...(this.pending.get(from) ?? []), { token, basis }]);
    return true;
  }

  commit(owner: string): void {
    for (const w of this.pending.get(owner) ?? []) this.inner.act(owner, w.token, w.basis);
    this.pending.delete(owner);
  }

  rollback(owner: string, reason: string): void {
    for (const w of this.pending.get(owner) ?? []) this.refuse(owner, w.token, reason);
    this.pending.delete(owner);
  }

  private refuse(from: string, token: number | null, reason: string): void {
    const { value, op } = this.inner.describeRequest(from, token);
    this.sim.record('resource.write', this.inner.id, {
      from,
      token,
      value,
      accepted: false,
      highestToken: null,
      reason,
      ...(op === 'write' ? {} : { op }),
    });
  }
}
