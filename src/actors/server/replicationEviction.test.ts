import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

const scenario = readFileSync('lessons/scenarios/eviction-lost-lock.yaml', 'utf8');
const withPolicy = (policy: string) => scenario.replace('maxmemoryPolicy: volatile-ttl', `maxmemoryPolicy: ${policy}`);

describe('eviction', () => {
  it('volatile-ttl evicts the lock first (the shortest TTL among cache entries of an hour), and B takes it', () => {
    const r = runYaml(scenario);
    const evictions = r.of('redis.evict', 'r1');
    expect(evictions[0]!.data).toEqual({ key: 'lock', policy: 'volatile-ttl' });
    const ended = r.of('lease.ended', 'r1')[0]!;
    expect(ended.data).toMatchObject({ owner: 'A', reason: 'evicted' });
    expect(ended.at).toBe(evictions[0]!.at);
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeGreaterThan(ended.at);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('allkeys-lru evicts the lock too when nobody polls it: it was touched once, the cache keys more recently', () => {
    // B's retries would touch the key every 500 ms and keep it "recently used"; here B comes later.
    const r = runYaml(withPolicy('allkeys-lru').replace('work: 2s, startAt: 1s', 'work: 2s, startAt: 6s'));
    expect(r.of('redis.evict', 'r1').map((e) => e.data.key)).toContain('lock');
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('noeviction keeps the lock: the cache writes are refused with OOM instead', () => {
    const r = runYaml(withPolicy('noeviction'));
    expect(r.of('redis.evict')).toEqual([]);
    const oom = r
      .of('redis.command', 'r1')
      .find((e) => e.data.from === 'cache' && e.data.reply.startsWith('(error) OOM'))!;
    expect(oom.data.reply).toBe("(error) OOM command not allowed when used memory > 'maxmemory'.");
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('samples from the seeded PRNG: the same seed evicts the same keys, in the same order', () => {
    const keys = (seed: number) =>
      runYaml(withPolicy('allkeys-random'), { seed })
        .of('redis.evict')
        .map((e) => e.data.key);
    expect(keys(5)).toEqual(keys(5));
    expect(keys(5).length).toBeGreaterThan(3);
  });
});
