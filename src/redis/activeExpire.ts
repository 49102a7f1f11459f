import type { Keyspace } from './keyspace';

/**
 * Redis's active expiry, one cycle: sample up to 20 keys that carry a TTL, delete the expired
 * ones, and go again while more than 10% of a sample was stale (Redis's
 * ACTIVE_EXPIRE_CYCLE_ACCEPTABLE_STALE). Redis bounds a cycle by CPU time; the simulator bounds
 * it by a number of rounds so one cycle stays cheap and deterministic.
 */

export const KEYS_PER_LOOP = 20;
export const ACCEPTABLE_STALE_PERCENT = 10;
export const MAX_ROUNDS_PER_CYCLE = 16;

/** Runs one cycle at time `nowMs`, drawing samples from `random`; returns deleted keys. */
export function activeExpireCycle(db: Keyspace, nowMs: number, random: () => number): string[] {
  const deleted: string[] = [];
  for (let round = 0; round < MAX_ROUNDS_PER_CYCLE; round++) {
    const candidates = db.keysWithTtl();
    if (candidates.length === 0) break;
    const sampleSize = Math.min(KEYS_PER_LOOP, candidates.length);
    let stale = 0;
    for (let i = 0; i < sampleSize; i++) {
      // A partial Fisher-Yates shuffle draws distinct keys, each from the seeded PRNG. When the
      // sample is every candidate, order does not matter and no draw is spent: the same PRNG
      // picks eviction victims, which must not shift because a cycle ran.
      const pick = sampleSize === candidates.length ? i : i + Math.floor(random() * (candidates.length - i));
      const key = candidates[pick] as string;
      candidates[pick] = candidates[i] as string;
      candidates[i] = key;
      const entry = db.raw(key);
      if (entry && entry.expiresAtMs !== null && nowMs > entry.expiresAtMs) {
        db.delete(key);
        deleted.push(key);
        stale++;
      }
    }
    if (stale * 100 <= sampleSize * ACCEPTABLE_STALE_PERCENT) break;
  }
  return deleted;
}
