import pg from 'pg';
import { serviceCommand, type ClientConfig, type Report } from './protocol';
import type { RealRecipe } from './realRecipe';

/**
 * The `db-lock` recipe's expiry-column table on a real PostgreSQL (postgres.ts starts it), with
 * lesson 38's statements: take the row, or take over one whose `expires_at` has passed by the
 * database's own `now()`, and get a token from a sequence; renew by moving `expires_at` while
 * the row is still this client's and live; release by deleting the row only if still its owner.
 * Each statement is reported as the simulator's `service.command`, in its words (LOCK,
 * KEEPALIVE, UNLOCK).
 */
export function dbLockRecipe(config: ClientConfig, report: (r: Report) => void): RealRecipe {
  const db = config.dbLock;
  if (!db) throw new Error(`client ${config.id} has no database to talk to`);
  const { value } = config;
  const ttl = String(config.ttlRealMs);
  const client = new pg.Client({
    host: '127.0.0.1',
    port: db.port,
    user: 'lockstep',
    database: 'postgres',
    ...(config.timeoutRealMs === null ? {} : { query_timeout: config.timeoutRealMs }),
  });
  const connected = client.connect();
  client.on('error', () => undefined);
  /** Rows the statement returned or changed; null when it got no answer in time (or failed). */
  const run = async (sql: string, values: string[]): Promise<pg.QueryResult | null> => {
    await connected;
    return client.query(sql, values).catch(() => null);
  };
  const told = (argv: string[], answer: number | null) => report(serviceCommand(db.id, config.id, argv, answer));

  return {
    reentrant: false,
    async acquire(key) {
      const taken = await run(
        `INSERT INTO locks AS l (name, owner, token, expires_at)
         VALUES ($1, $2, nextval('lock_tokens'), now() + $3 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE
           SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at < now()
         RETURNING token`,
        [key, value, ttl],
      );
      if (taken === null) return { ok: false, reason: 'timeout' };
      const token = taken.rows.length > 0 ? Number((taken.rows[0] as { token: string }).token) : null;
      told(['LOCK', key, value, String(config.ttlScenarioMs)], token);
      if (token === null) return { ok: false, reason: 'busy' };
      return { ok: true, token: config.fencing ? token : null };
    },
    async release(key) {
      const deleted = await run('DELETE FROM locks WHERE name = $1 AND owner = $2', [key, value]);
      const answer = deleted?.rowCount ?? 0;
      told(['UNLOCK', key, value], answer);
      return answer > 0;
    },
    async renew(key) {
      const kept = await run(
        `UPDATE locks SET expires_at = now() + $3 * interval '1 millisecond'
         WHERE name = $1 AND owner = $2 AND expires_at >= now()`,
        [key, value, ttl],
      );
      if (kept === null) return 'unknown';
      told(['KEEPALIVE', key, value, String(config.ttlScenarioMs)], kept.rowCount ?? 0);
      return kept.rowCount === 1 ? 'renewed' : 'lost';
    },
  };
}
