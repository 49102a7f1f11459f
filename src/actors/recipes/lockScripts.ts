import { PATTERN_SCRIPT_NAMES } from './patternScripts';

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

/** The watchdog's renewal: extend the lease only if it is still mine. */
export const RENEW_IF_MINE = `-- KEYS[1]: the lock, ARGV[1]: my value, ARGV[2]: new lease length in ms
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** Reentrant acquire: a hash whose one field is the owner, counting how many times it entered. */
export const REENTRANT_ACQUIRE = `-- KEYS[1]: the lock, ARGV[1]: my value, ARGV[2]: lease length in ms
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  local count = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return count
end
return false`;

/** Reentrant release: count down; delete the lock when the outermost holder leaves. */
export const REENTRANT_RELEASE = `-- KEYS[1]: the lock, ARGV[1]: my value, ARGV[2]: lease length in ms
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 0
end
return redis.call('DEL', KEYS[1])`;

/** Reentrant renewal: extend only while my field is still there. */
export const REENTRANT_RENEW = `-- KEYS[1]: the lock, ARGV[1]: my value, ARGV[2]: new lease length in ms
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

const NAMES = new Map<string, string>([
  [ACQUIRE_WITH_FENCE, 'acquire-with-fence'],
  [RELEASE_IF_MINE, 'release-if-mine'],
  [RENEW_IF_MINE, 'renew-if-mine'],
  [REENTRANT_ACQUIRE, 'reentrant-acquire'],
  [REENTRANT_RELEASE, 'reentrant-release'],
  [REENTRANT_RENEW, 'reentrant-renew'],
  ...PATTERN_SCRIPT_NAMES,
]);

/** A short label for the arrow on the timeline: scripts are named, not printed whole. */
export function commandLabel(argv: readonly string[]): string {
  if (argv[0] === 'EVAL')
    return `EVAL ${NAMES.get(argv[1]!) ?? 'script'} ${argv.slice(3, 3 + Number(argv[2])).join(' ')}`.trim();
  return argv.join(' ');
}
