import type { Sim } from '../../sim/sim';
import { formatMs, localTime, type LocalClockMs } from '../../sim/time';
import { Process } from '../process/process';
import { describeAnswer, type LockService } from './lockService';

/**
 * How a database holds the lock:
 * - `expiry-column`: a `locks` table with a unique `name` and an `expires_at` column.
 *   `INSERT ... ON CONFLICT (name) DO UPDATE ... WHERE locks.expires_at < now()` takes it (or
 *   takes over an expired row), `DELETE ... WHERE owner = ?` releases it. Expiry is judged by
 *   the database's own clock, `now()`. Each take draws the next value of a sequence: the token.
 * - `for-update`: `BEGIN; SELECT ... FROM locks WHERE name = ? FOR UPDATE`: a row lock held by
 *   the client's open transaction. Others queue inside the database until it commits; the
 *   client's writes ride in the same transaction and land only at COMMIT. A stalled holder
 *   blocks everyone until `idle_in_transaction_session_timeout` kills its session, which rolls
 *   back its writes too. A crashed client's connection closes and the lock frees at once.
 */
export type DbLockMode = 'expiry-column' | 'for-update';

interface Row {
  value: string;
  owner: string;
  token: number;
  /** expiry-column: the deadline on the database's clock; null for a row lock. */
  expiresAtLocal: LocalClockMs | null;
  /** for-update: the session's idle timer. */
  idleTimer: number | null;
}

interface Waiter {
  value: string;
  from: string;
  msg: number;
  respond: (answer: number | null) => void;
}

/** Writes a session made inside its transaction, applied at COMMIT or thrown away on rollback. */
export interface TransactionHooks {
  /** Applies `owner`'s buffered writes (COMMIT). */
  commit(owner: string): void;
  /** Throws `owner`'s buffered writes away, saying why (ROLLBACK). */
  rollback(owner: string, reason: string): void;
}

export interface DbLockOptions {
  mode: DbLockMode;
  /** for-update: kill a session idle inside its transaction this long (null: never, Postgres's default). */
  idleTimeoutMs: number | null;
}

export class DbLockTable implements LockService {
  readonly process: Process;
  private sequence = 0;
  private readonly rows = new Map<string, Row>();
  private readonly queues = new Map<string, Waiter[]>();
  /** Set by the world in for-update mode: the protected table's transactional side. */
  transactions: TransactionHooks | null = null;

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    private readonly ownerOf: (value: string) => string,
    readonly options: DbLockOptions,
  ) {
    this.process = new Process(sim, id);
    // A clock jump moves now(): rows it pushed past their deadline are expired from now on.
    this.process.onClockJump(() => {
      for (const [key, row] of [...this.rows]) this.watchExpiry(key, row);
    });
    // The database's state is durable, but open transactions die with the server.
    this.process.onCrash(() => {
      for (const [key, row] of [...this.rows])
        if (row.expiresAtLocal === null) this.endRowLock(key, row, 'the database restarted');
      this.queues.clear();
    });
    this.process.onRestart(() => {
      for (const [key, row] of this.rows) this.watchExpiry(key, row);
    });
  }

  /** The owner of `key`'s row lock, if an open transaction holds it. */
  holderOf(key: string): string | null {
    return this.rows.get(key)?.owner ?? null;
  }

  /** Whether `owner`'s session has an open transaction holding some lock (its writes can join it). */
  inTransaction(owner: string): boolean {
    return [...this.rows.values()].some((r) => r.owner === owner && r.expiresAtLocal === null);
  }

  /** A statement from `owner` arrived: its session is busy, not idle. */
  touch(owner: string): void {
    for (const [key, row] of this.rows) if (row.owner === owner) this.armIdle(key, row);
  }

  /** The client's connection closed (it crashed): the database rolls its transaction back. */
  disconnect(owner: string): void {
    for (const [key, row] of [...this.rows])
      if (row.owner === owner && row.expiresAtLocal === null) this.endRowLock(key, row, 'its connection closed');
  }

  label(argv: readonly string[]): string {
    const [op, key] = argv;
    const forUpdate = this.options.mode === 'for-update';
    if (op === 'LOCK')
      return forUpdate
        ? `BEGIN; SELECT ${key} FOR UPDATE`
        : `INSERT ${key} ON CONFLICT take if expired (${formatMs(Number(argv[3]))})`;
    if (op === 'KEEPALIVE') return forUpdate ? 'SELECT 1' : `UPDATE ${key} SET expires_at`;
    return forUpdate ? 'COMMIT' : `DELETE ${key} WHERE owner = me`;
  }

  handle(argv: readonly string[], from: string, msg: number, respond: (answer: number | null) => void): void {
    const [op, key, value] = argv as [string, string, string];
    const log = (answer: number | null) =>
      this.sim.record('service.command', this.id, { msg, from, argv: [...argv], reply: describeAnswer(answer) });
    if (
      this.options.mode === 'for-update' &&
      op === 'LOCK' &&
      this.rows.has(key) &&
      this.rows.get(key)!.value !== value
    ) {
      // The row is locked: this SELECT ... FOR UPDATE blocks inside the database until it is free.
      const queue = this.queues.get(key) ?? [];
      this.queues.set(key, queue);
      queue.push({ value, from, msg, respond: (answer) => (log(answer), respond(answer)) });
      return;
    }
    const answer = this.apply(op, key, value, Number(argv[3]));
    log(answer);
    respond(answer);
  }

  private apply(op: string, key: string, value: string, ttlMs: number): number | null {
    this.expireIfDue(key);
    const row = this.rows.get(key);
    if (op === 'LOCK') {
      if (!row) return this.take(key, value, ttlMs);
      if (this.options.mode === 'for-update') return row.value === value ? row.token : null;
      // The INSERT's VALUES draws nextval('lock_tokens') before it meets the live row, and the
      // conflict's WHERE leaves that row alone: no row comes back, whoever holds it, and a number
      // is used up (as PostgreSQL does: the reality check's run of lesson 38 on a real one).
      this.sequence++;
      return null;
    }
    if (row?.value !== value) return 0;
    if (op === 'KEEPALIVE') {
      if (row.expiresAtLocal !== null) {
        row.expiresAtLocal = localTime(this.process.localNow() + ttlMs);
        this.watchExpiry(key, row);
      } else this.armIdle(key, row);
      return 1;
    }
    if (row.expiresAtLocal === null) {
      this.transactions?.commit(row.owner);
      this.release(key, row, 'deleted');
    } else this.release(key, row, 'deleted');
    return 1;
  }

  private take(key: string, value: string, ttlMs: number): number {
    const forUpdate = this.options.mode === 'for-update';
    const row: Row = {
      value,
      owner: this.ownerOf(value),
      token: ++this.sequence,
      expiresAtLocal: forUpdate ? null : localTime(this.process.localNow() + ttlMs),
      idleTimer: null,
    };
    this.rows.set(key, row);
    const expiresAtMs = row.expiresAtLocal === null ? null : this.process.simTimeWhenLocalPasses(row.expiresAtLocal);
    this.sim.record('lease.granted', this.id, { key, owner: row.owner, value, expiresAtMs });
    if (forUpdate) this.armIdle(key, row);
    else this.watchExpiry(key, row);
    return row.token;
  }

  /** Ends a lock row and hands the row lock to the next session queued for it. */
  private release(key: string, row: Row, reason: 'expired' | 'deleted' | 'lost'): void {
    if (row.idleTimer !== null) this.sim.kernel.cancel(row.idleTimer);
    this.rows.delete(key);
    this.sim.record('lease.ended', this.id, { key, owner: row.owner, reason });
    const next = this.queues.get(key)?.shift();
    if (next) next.respond(this.take(key, next.value, 0));
  }

  private endRowLock(key: string, row: Row, why: string): void {
    this.transactions?.rollback(row.owner, `the transaction was rolled back: ${why}`);
    this.release(key, row, 'lost');
  }

  private armIdle(key: string, row: Row): void {
    const idleMs = this.options.idleTimeoutMs;
    if (idleMs === null) return;
    if (row.idleTimer !== null) this.sim.kernel.cancel(row.idleTimer);
    row.idleTimer = this.process.setTimer(idleMs, () => {
      row.idleTimer = null;
      if (this.rows.get(key) === row)
        this.endRowLock(key, row, `the session sat idle in its transaction for ${formatMs(idleMs)}`);
    });
  }

  /** expiry-column: records the lease's end the moment now() passes expires_at. */
  private watchExpiry(key: string, row: Row): void {
    if (row.expiresAtLocal === null) return;
    if (this.expireIfDue(key)) return;
    const at = this.process.simTimeWhenLocalPasses(row.expiresAtLocal);
    this.sim.kernel.schedule(at - this.sim.now, this.process.owner, () => {
      if (this.rows.get(key) === row) this.watchExpiry(key, row);
    });
  }

  private expireIfDue(key: string): boolean {
    const row = this.rows.get(key);
    if (!row || row.expiresAtLocal === null || this.process.localNow() <= row.expiresAtLocal) return false;
    this.release(key, row, 'expired');
    return true;
  }
}
