import type { ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import type { Children } from './children';
import { fakeClock } from './fakeClock';
import type { LeaseChange } from './leaseWatcher';
import { onFreePort } from './redisServer';

const BIN = '/usr/lib/postgresql/15/bin';

/**
 * Lesson 38's lock table, its token sequence, and a trigger that announces every change to a
 * row (NOTIFY, delivered when the statement commits) with the time left on its lease by the
 * database's own clock.
 */
const SCHEMA = `
CREATE TABLE locks (name text PRIMARY KEY, owner text NOT NULL, token bigint NOT NULL, expires_at timestamptz NOT NULL);
CREATE SEQUENCE lock_tokens;
CREATE FUNCTION announce() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('locks', json_build_object(
    'op', TG_OP, 'name', COALESCE(NEW.name, OLD.name), 'owner', NEW.owner, 'before', OLD.owner,
    'leftMs', extract(epoch FROM NEW.expires_at - now()) * 1000)::text);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER announce AFTER INSERT OR UPDATE OR DELETE ON locks FOR EACH ROW EXECUTE FUNCTION announce();
`;

/** PostgreSQL refuses to run as root: there, its programs run as Debian's `postgres` user. */
function asDatabaseUser(dir: string): string[] {
  if (process.getuid?.() !== 0) return [];
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line)
    throw new Error("PostgreSQL cannot run as root and there is no 'postgres' user: install Debian's postgresql");
  const [, , uid, gid] = line.split(':');
  chownSync(dir, Number(uid), Number(gid));
  return ['runuser', '-u', 'postgres', '--'];
}

function exited(child: ChildProcess, what: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(
          `${what} could not start (${error.message}): install Debian's postgresql (.ci/ensureSystemDeps.sh does)`,
        ),
      ),
    );
    child.once('exit', resolve);
  });
}

/**
 * The scenario's database as Debian's PostgreSQL 15: a cluster made by initdb in a temporary
 * directory, the server on a free loopback port (fsync off: nothing here survives a power
 * loss, and nothing asks it to), under libfaketime when the script steps its clock, the lock
 * table made and watched (DbLeases). Its clock is stepped as a Redis node's is (fakeClock.ts).
 */
export class RealDatabase {
  private constructor(
    readonly id: string,
    readonly process: ChildProcess,
    readonly port: number,
    readonly leases: DbLeases,
    private readonly clock: ReturnType<typeof fakeClock> | undefined,
  ) {}

  private offsetSeconds = 0;

  static async start(
    children: Children,
    db: { id: string } | undefined,
    keysJumped: boolean,
    emit: (server: string, change: LeaseChange, atMs: number) => void,
  ): Promise<RealDatabase | undefined> {
    if (db === undefined) return undefined;
    const dir = children.tempDir('lockstep-postgres-');
    const runAs = asDatabaseUser(dir);
    const command = (bin: string, args: string[]): [string, string[]] =>
      runAs.length > 0 ? [runAs[0]!, [...runAs.slice(1), `${BIN}/${bin}`, ...args]] : [`${BIN}/${bin}`, args];
    const initdb = children.start(
      ...command('initdb', ['-D', `${dir}/data`, '-A', 'trust', '-U', 'lockstep', '--no-sync']),
      {
        stdio: 'ignore',
      },
    );
    if ((await exited(initdb, 'initdb')) !== 0) throw new Error(`initdb failed in ${dir}`);
    const clock = keysJumped ? fakeClock() : undefined;
    // The server, running as `postgres`, reads the clock's control file.
    if (clock) chmodSync(dirname(clock.env.FAKETIME_TIMESTAMP_FILE!), 0o755);
    const { port, started } = await onFreePort(async (port) => {
      const server = children.start(
        ...command('postgres', [
          ...['-D', `${dir}/data`, '-p', String(port), '-k', dir],
          ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
        ]),
        { stdio: ['ignore', 'ignore', 'pipe'], ...(clock ? { env: clock.env } : {}) },
      );
      let said = '';
      server.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const ready = new Promise<ChildProcess>((resolve, reject) => {
        server.stderr!.on('data', () => said.includes('ready to accept connections') && resolve(server));
        void exited(server, 'postgres').then(
          (code) => reject(new Error(`postgres exited with ${code}:\n${said}`)),
          reject,
        );
      });
      return ready;
    });
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'lockstep', database: 'postgres' });
    await admin.connect();
    await admin.query(SCHEMA);
    await admin.end();
    const leases = new DbLeases(port, (change, at) => emit(db.id, change, at));
    await leases.start();
    return new RealDatabase(db.id, started, port, leases, clock);
  }

  /** Steps the server's wall clock (`now()`) by `byRealMs`, then looks at every lease again. */
  async jumpClock(byRealMs: number): Promise<void> {
    this.offsetSeconds += byRealMs / 1000;
    this.clock!.setOffsetSeconds(this.offsetSeconds);
    await this.leases.clockJumped();
  }

  close(): void {
    this.leases.stop();
    this.clock?.remove();
  }
}

interface Announced {
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  name: string;
  owner: string | null;
  before: string | null;
  leftMs: number | null;
}

/**
 * The lock rows as leases, from the table's own announcements (LISTEN): a row taken is a lease
 * granted to the owner its value names (`A-1f2e3d4c`), a row deleted a lease ended by release,
 * a row taken over (its holder's time was up) the old lease expired and a new one granted. A
 * lease also expires with no statement at all, when `now()` passes `expires_at`: a timer for the
 * time the database said was left, looked at again after a clock jump.
 */
class DbLeases {
  private readonly listener: pg.Client;
  private readonly reader: pg.Client;
  private readonly live = new Map<string, { owner: string; timer?: NodeJS.Timeout }>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    port: number,
    private readonly emit: (change: LeaseChange, atMs: number) => void,
  ) {
    const options = { host: '127.0.0.1', port, user: 'lockstep', database: 'postgres' };
    this.listener = new pg.Client(options);
    this.reader = new pg.Client(options);
    for (const c of [this.listener, this.reader]) c.on('error', () => undefined);
    this.listener.on('notification', (n) => this.heard(JSON.parse(n.payload!) as Announced, performance.now()));
  }

  async start(): Promise<void> {
    await Promise.all([this.listener.connect(), this.reader.connect()]);
    await this.listener.query('LISTEN locks');
  }

  /**
   * Waits for every change committed so far to be heard and handled. A notification reaches the
   * listener after its statement's client has its answer; one round trip on the listener's own
   * connection delivers every notification committed before it.
   */
  async settled(): Promise<void> {
    await this.listener.query('SELECT 1').catch(() => undefined);
    await this.queue;
  }

  stop(): void {
    for (const { timer } of this.live.values()) clearTimeout(timer);
    void this.listener.end().catch(() => undefined);
    void this.reader.end().catch(() => undefined);
  }

  /** The clock moved: each live lease's deadline is that much nearer or farther. */
  clockJumped(): Promise<void> {
    const at = performance.now();
    return (this.queue = this.queue.then(async () => {
      const rows = await this.reader
        .query<{ name: string; left_ms: number }>(
          'SELECT name, extract(epoch FROM expires_at - now()) * 1000 AS left_ms FROM locks',
        )
        .catch(() => ({ rows: [] }));
      for (const row of rows.rows) this.watch(row.name, Number(row.left_ms), at);
    }));
  }

  private heard(change: Announced, at: number): void {
    this.queue = this.queue.then(() => {
      const { name, owner } = change;
      if (change.op === 'DELETE') return this.end(name, 'deleted', at);
      const held = this.live.get(name);
      if (change.op === 'UPDATE' && held && change.before === owner) return this.watch(name, change.leftMs!, at);
      this.end(name, 'expired', at);
      this.emit({ kind: 'lease.granted', key: name, owner: owner!.split('-', 1)[0]!, value: owner! }, at);
      this.live.set(name, { owner: owner! });
      this.watch(name, change.leftMs!, at);
    });
  }

  /** (Re)arms the lease's end `leftMs` after `at`; at once when its time is already up. */
  private watch(name: string, leftMs: number, at: number): void {
    const held = this.live.get(name);
    if (!held) return;
    clearTimeout(held.timer);
    const due = at + Math.max(0, leftMs);
    const expire = () => {
      if (this.live.get(name) === held) this.end(name, 'expired', due);
    };
    held.timer = setTimeout(() => (this.queue = this.queue.then(expire)), Math.max(0, due - performance.now()));
  }

  private end(name: string, reason: 'expired' | 'deleted', at: number): void {
    const held = this.live.get(name);
    if (!held) return;
    clearTimeout(held.timer);
    this.live.delete(name);
    this.emit({ kind: 'lease.ended', key: name, owner: held.owner.split('-', 1)[0]!, reason }, at);
  }
}
