/**
 * The Lua of the lock patterns (course 3): the fair lock, the read-write lock and the
 * semaphore. Lessons show these same texts, so what a learner reads is what the simulator runs.
 * Scripts that need the time ask Redis (`TIME`) rather than trusting each client's clock.
 */

/**
 * Fair lock: waiters queue in a list in the order their first request reached Redis; only the
 * head of the queue may take the lease. A waiter must ask again before its deadline (kept in
 * a sorted set), or it leaves the queue, so a waiter that crashed does not block the rest.
 */
export const FAIR_ACQUIRE = `-- KEYS[1]: the lock, KEYS[2]: the queue (a list, first come first),
-- KEYS[3]: each waiter's deadline to ask again (a sorted set)
-- ARGV[1]: my value, ARGV[2]: lease length in ms, ARGV[3]: how long I stay queued without asking, in ms
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
for _, gone in ipairs(redis.call('ZRANGE', KEYS[3], '-inf', now, 'BYSCORE')) do
  redis.call('LREM', KEYS[2], 0, gone)
  redis.call('ZREM', KEYS[3], gone)
end
if not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  redis.call('RPUSH', KEYS[2], ARGV[1])
end
redis.call('ZADD', KEYS[3], now + ARGV[3], ARGV[1])
if redis.call('LINDEX', KEYS[2], 0) == ARGV[1] and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('LPOP', KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return 1
end
return false`;

/** Read-write lock, reader side: come in unless a writer holds it; count my entries. */
export const RW_READ_ACQUIRE = `-- KEYS[1]: the lock (a hash: one field per holder, and 'mode')
-- ARGV[1]: my value, ARGV[2]: lease length in ms
if redis.call('HGET', KEYS[1], 'mode') == 'write' then
  return false
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[1], 'mode', 'read')
-- Extend the lock to my lease, never shorten another reader's.
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

/** Read-write lock, writer side: come in only when nobody, reader or writer, holds it. */
export const RW_WRITE_ACQUIRE = `-- KEYS[1]: the lock (a hash: one field per holder, and 'mode')
-- ARGV[1]: my value, ARGV[2]: lease length in ms
if redis.call('EXISTS', KEYS[1]) == 1 then
  return false
end
redis.call('HSET', KEYS[1], ARGV[1], 1, 'mode', 'write')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Read-write lock release, both sides: give back one of my entries (a reader may have entered
 * more than once), drop my field at zero, and the last holder out deletes the lock. Counting
 * down rather than deleting the field is what Redisson's RReadWriteLock does: deleting it let a
 * reader that entered twice lose both entries on its first leave, and let a writer in early.
 */
export const RW_RELEASE = `-- KEYS[1]: the lock, ARGV[1]: my value
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) > 0 then
  return 1
end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HLEN', KEYS[1]) == 1 then
  redis.call('DEL', KEYS[1])
end
return 1`;

/** Read-write lock renewal: extend the lock while my field is still in it. */
export const RW_RENEW = `-- KEYS[1]: the lock, ARGV[1]: my value, ARGV[2]: new lease length in ms
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/**
 * Semaphore: at most ARGV[3] holders, each a member scored by when its lease runs out. Expired
 * holders (a crashed client never releases) are pruned before counting.
 */
export const SEMAPHORE_ACQUIRE = `-- KEYS[1]: the holders (a sorted set: value -> lease end in ms)
-- ARGV[1]: my value, ARGV[2]: lease length in ms, ARGV[3]: permits
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now + ARGV[2], ARGV[1])
  -- The set outlives its last holder's lease, whoever asked for the longest.
  redis.call('PEXPIREAT', KEYS[1], redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  return 1
end
return false`;

/** Semaphore release: give my permit back. */
export const SEMAPHORE_RELEASE = `-- KEYS[1]: the holders, ARGV[1]: my value
return redis.call('ZREM', KEYS[1], ARGV[1])`;

/** Semaphore renewal: push my lease end out, only if my permit has not expired. */
export const SEMAPHORE_RENEW = `-- KEYS[1]: the holders, ARGV[1]: my value, ARGV[2]: new lease length in ms
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) > now then
  redis.call('ZADD', KEYS[1], now + ARGV[2], ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  return 1
end
return 0`;

/** Short names for the timeline's arrows (see commandLabel in lockScripts.ts). */
export const PATTERN_SCRIPT_NAMES: ReadonlyArray<[string, string]> = [
  [FAIR_ACQUIRE, 'fair-acquire'],
  [RW_READ_ACQUIRE, 'rw-read-acquire'],
  [RW_WRITE_ACQUIRE, 'rw-write-acquire'],
  [RW_RELEASE, 'rw-release'],
  [RW_RENEW, 'rw-renew'],
  [SEMAPHORE_ACQUIRE, 'semaphore-acquire'],
  [SEMAPHORE_RELEASE, 'semaphore-release'],
  [SEMAPHORE_RENEW, 'semaphore-renew'],
];
