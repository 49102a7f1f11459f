/**
 * The Lua the lock recipes send to Redis. Lessons show these same texts, so what a learner
 * reads is what the simulator runs.
 */

/** Take the lease and, only if that worked, draw the next fencing token, in one atomic step. */
export const ACQUIRE_WITH_FENCE = `-- KEYS[1]: the lock, KEYS[2]: the token counter
-- ARGV[1]: my random value, ARGV[2]: lease length in ms
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false`;

/** Delete the lock only if it still holds my value: never release someone else's lease. */
export const RELEASE_IF_MINE = `-- KEYS[1]: the lock, ARGV[1]: the value I stored when I took it
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
