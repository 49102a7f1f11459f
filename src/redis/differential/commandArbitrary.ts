import fc from 'fast-check';

/**
 * Random Redis commands over a tiny key space, for the random-sequence differential test.
 * Everything here must be deterministic on a real server too: no KEYS/SCAN (hash order), no
 * DBSIZE (active expiry), no PTTL (wall clock), TTLs only in whole seconds far from rounding
 * edges, and small hashes (big ones change encoding and order). GT and LT only compare
 * absolute deadlines (EXPIREAT, PEXPIREAT): `SET k v EX 100` then `EXPIRE k 100 GT` ties or
 * not depending on whether a millisecond passed between the two commands, on either server.
 */

const key = fc.constantFrom('a', 'b', 'c');
const field = fc.constantFrom('f', 'g');
const member = fc.constantFrom('m', 'n', 'o');
const value = fc.constantFrom(
  '0',
  '1',
  '-1',
  '42',
  'x',
  '',
  '1.5',
  ' 1',
  '01',
  '9223372036854775807',
  '-9223372036854775808',
);
const int = fc.constantFrom(
  '0',
  '1',
  '-1',
  '2',
  '5',
  '-3',
  '100',
  'x',
  '9223372036854775807',
  '-9223372036854775808',
  '1.5',
);
const seconds = fc.constantFrom('100', '200', '50', '0', '-1', 'x', '9223372036854775807');
/** Unix seconds: 2100-01-01 and a second later, the distant past, and bad values. */
const unixSeconds = fc.constantFrom('4102444800', '4102444801', '1', '0', '-1', 'x', '9223372036854775807');
/** A whole-seconds argument in ms for the P- variants. */
const inMs = (s: string, ms: boolean): string => (ms && /^[0-9]+$/.test(s) && s !== '0' ? `${s}000` : s);
const score = fc.constantFrom('0', '1', '2', '-1', '0.1', '1.5', 'inf', '-inf', 'nan', 'x', '1e3', '(1');
const bound = fc.constantFrom('0', '1', '-1', '2', '(1', '-inf', '+inf', 'x', '[m', '(n', '-', '+');
const index = fc.constantFrom('0', '1', '-1', '2', '-2', '5', 'x');

const options = <T extends string>(...choices: T[]): fc.Arbitrary<string[]> =>
  fc
    .subarray(choices, { minLength: 0 })
    .chain((chosen) => fc.shuffledSubarray(chosen, { minLength: chosen.length, maxLength: chosen.length }));

const setCommand = fc
  .tuple(
    key,
    value,
    options('NX', 'XX', 'GET', 'KEEPTTL'),
    fc.option(
      fc.tuple(
        fc.constantFrom('EX', 'PX'),
        seconds.map((s) => (s === '100' ? s : s)),
      ),
    ),
  )
  .map(([k, v, opts, expire]) => {
    const tail = expire
      ? [expire[0], expire[0] === 'PX' && /^[0-9]+$/.test(expire[1]) ? `${expire[1]}000` : expire[1]]
      : [];
    return ['SET', k, v, ...opts, ...tail];
  });

/** One random command as argv. */
export const commandArbitrary: fc.Arbitrary<string[]> = fc.oneof(
  setCommand,
  key.map((k) => ['GET', k]),
  key.map((k) => ['GETDEL', k]),
  fc.tuple(key, value).map(([k, v]) => ['SETNX', k, v]),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((ks) => ['DEL', ...ks]),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((ks) => ['EXISTS', ...ks]),
  key.map((k) => ['INCR', k]),
  key.map((k) => ['DECR', k]),
  fc.tuple(key, int).map(([k, n]) => ['INCRBY', k, n]),
  fc.tuple(key, int).map(([k, n]) => ['DECRBY', k, n]),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((ks) => ['MGET', ...ks]),
  fc.tuple(key, value, key, value).map(([k1, v1, k2, v2]) => ['MSET', k1, v1, k2, v2]),
  fc
    .tuple(fc.constantFrom('EXPIRE', 'PEXPIRE'), key, seconds, options('NX', 'XX'))
    .map(([cmd, k, s, opts]) => [cmd, k, inMs(s, cmd === 'PEXPIRE'), ...opts]),
  fc
    .tuple(fc.constantFrom('EXPIREAT', 'PEXPIREAT'), key, unixSeconds, options('NX', 'XX', 'GT', 'LT'))
    .map(([cmd, k, s, opts]) => [cmd, k, inMs(s, cmd === 'PEXPIREAT'), ...opts]),
  key.map((k) => ['TTL', k]),
  key.map((k) => ['PERSIST', k]),
  key.map((k) => ['TYPE', k]),
  fc
    .tuple(key, field, value, fc.option(fc.tuple(field, value)))
    .map(([k, f, v, more]) => ['HSET', k, f, v, ...(more ?? [])]),
  fc.tuple(key, field).map(([k, f]) => ['HGET', k, f]),
  fc.tuple(key, field).map(([k, f]) => ['HDEL', k, f]),
  fc.tuple(key, field).map(([k, f]) => ['HEXISTS', k, f]),
  fc.tuple(key, field, int).map(([k, f, n]) => ['HINCRBY', k, f, n]),
  key.map((k) => ['HGETALL', k]),
  key.map((k) => ['HLEN', k]),
  fc
    .tuple(
      key,
      options('NX', 'XX', 'GT', 'LT', 'CH', 'INCR'),
      fc.array(fc.tuple(score, member), { minLength: 1, maxLength: 2 }),
    )
    .map(([k, opts, pairs]) => ['ZADD', k, ...opts, ...pairs.flat()]),
  fc.tuple(key, index, index, options('WITHSCORES', 'REV')).map(([k, a, b, opts]) => ['ZRANGE', k, a, b, ...opts]),
  fc
    .tuple(
      key,
      bound,
      bound,
      fc.constantFrom('BYSCORE', 'BYLEX'),
      options('REV', 'WITHSCORES'),
      fc.option(fc.tuple(index, index)),
    )
    .map(([k, a, b, by, opts, limit]) => ['ZRANGE', k, a, b, by, ...opts, ...(limit ? ['LIMIT', ...limit] : [])]),
  fc.tuple(key, member).map(([k, m]) => ['ZREM', k, m]),
  key.map((k) => ['ZCARD', k]),
  fc.tuple(key, member).map(([k, m]) => ['ZSCORE', k, m]),
  fc.tuple(key, member).map(([k, m]) => ['ZRANK', k, m]),
  fc
    .tuple(fc.constantFrom('LPUSH', 'RPUSH'), key, fc.array(member, { minLength: 1, maxLength: 3 }))
    .map(([cmd, k, ms]) => [cmd, k, ...ms]),
  fc.tuple(key, fc.option(index)).map(([k, n]) => (n === null ? ['LPOP', k] : ['LPOP', k, n])),
  fc.tuple(key, index, index).map(([k, a, b]) => ['LRANGE', k, a, b]),
  fc.tuple(key, index, member).map(([k, n, m]) => ['LREM', k, n, m]),
  fc.tuple(key, index).map(([k, n]) => ['LINDEX', k, n]),
  key.map((k) => ['LLEN', k]),
  fc.constantFrom<string[]>(
    ['PING'],
    ['ECHO', 'hi'],
    ['SET', 'a'],
    ['NOPE', 'a'],
    ['HSET', 'a', 'f'],
    ['ZADD', 'a', '1'],
  ),
);

/** A random sequence of commands (one differential case). */
export const sequenceArbitrary = fc.array(commandArbitrary, { minLength: 1, maxLength: 12 });
