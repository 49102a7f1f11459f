import type { MaxmemoryPolicy } from './config';
import type { Entry, Keyspace } from './keyspace';

/**
 * Redis's approximate eviction: sample `maxmemory-samples` keys (5) from the candidates the
 * policy allows (every key for allkeys-*, keys with a TTL for volatile-*), and evict the best
 * of the sample: the least recently used (lru), the least frequently used (lfu), the one that
 * expires soonest (volatile-ttl), or any (random). Samples are drawn from the seeded PRNG.
 *
 * Lock keys carry TTLs, so volatile-* policies can evict them; under volatile-ttl a lock (a TTL
 * of seconds among cache entries of hours) is the first to go.
 */
export const MAXMEMORY_SAMPLES = 5;

/** Picks the key to evict next, or undefined when the policy has no candidate left. */
export function pickVictim(db: Keyspace, policy: MaxmemoryPolicy, random: () => number): string | undefined {
  if (policy === 'noeviction') return undefined;
  const candidates = policy.startsWith('volatile-') ? db.keysWithTtl() : db.keys();
  if (candidates.length === 0) return undefined;
  const sample: string[] = [];
  const pool = [...candidates];
  for (let i = 0; i < Math.min(MAXMEMORY_SAMPLES, pool.length); i++) {
    const pick = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[pick]] = [pool[pick]!, pool[i]!];
    sample.push(pool[i]!);
  }
  if (policy.endsWith('-random')) return sample[0];
  const score = scorer(policy);
  let best = sample[0]!;
  for (const key of sample.slice(1)) if (score(db.raw(key)!) < score(db.raw(best)!)) best = key;
  return best;
}

/** Lower score = evicted first. */
function scorer(policy: MaxmemoryPolicy): (entry: Entry) => number {
  if (policy === 'volatile-ttl') return (e) => e.expiresAtMs ?? Infinity;
  if (policy.endsWith('-lfu')) return (e) => e.hits ?? 0;
  return (e) => e.accessedAtMs ?? 0;
}
