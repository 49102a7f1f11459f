import type { Keyspace } from './keyspace';
import { formatDouble } from './numbers';

/**
 * The dataset as the commands that rebuild it: what a primary ships to a replica in a full
 * resync (Redis sends an RDB file; the simulator sends its equivalent) and what an AOF rewrite
 * would contain. Expired-but-stored keys are left out, and TTLs are absolute (PEXPIREAT), so a
 * replica that loads the snapshot later still sees each key die at the same moment.
 */
export function snapshotCommands(db: Keyspace, nowMs: number): string[][] {
  const out: string[][] = [];
  for (const key of db.keys()) {
    const entry = db.raw(key);
    if (!entry || (entry.expiresAtMs !== null && nowMs > entry.expiresAtMs)) continue;
    const { value } = entry;
    switch (value.type) {
      case 'string':
        out.push(['SET', key, value.value]);
        break;
      case 'hash':
        out.push(['HSET', key, ...[...value.value].flat()]);
        break;
      case 'list':
        out.push(['RPUSH', key, ...value.value]);
        break;
      case 'zset':
        out.push(['ZADD', key, ...value.value.entries().flatMap((e) => [formatDouble(e.score), e.member])]);
        break;
    }
    if (entry.expiresAtMs !== null) out.push(['PEXPIREAT', key, String(entry.expiresAtMs)]);
  }
  return out;
}
