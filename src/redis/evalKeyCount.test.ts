import { describe, expect, test } from 'vitest';
import { NO_SCRIPT_ENGINE, RedisServer } from './server';
import { error } from './reply';

// EVAL and EVALSHA read their key count with a shortcut for one digit; every other spelling
// must get the answers redis-server 7.0 gives (checked with redis-cli against 7.0.15).

const notInteger = error('ERR value is not an integer or out of range');
const tooMany = error("ERR Number of keys can't be greater than number of args");
const negative = error("ERR Number of keys can't be negative");
const noEngine = error(NO_SCRIPT_ENGINE);

describe('EVAL key count', () => {
  const redis = new RedisServer({ clock: () => 1_000_000, random: () => 0.5 });
  const evalWith = (...rest: string[]) => redis.exec(['EVAL', 'return 1', ...rest]);

  test('a count within the arguments reaches the script engine', () => {
    expect(evalWith('0')).toEqual(noEngine);
    expect(evalWith('1', 'k')).toEqual(noEngine);
    expect(evalWith('2', 'k', 'a')).toEqual(noEngine);
    expect(evalWith('12', ...Array.from({ length: 12 }, (_, i) => `k${i}`))).toEqual(noEngine);
  });

  test('a count beyond the arguments, negative or malformed is refused', () => {
    expect(evalWith('1')).toEqual(tooMany);
    expect(evalWith('3', 'k', 'a')).toEqual(tooMany);
    expect(evalWith('10', 'k')).toEqual(tooMany);
    expect(evalWith('-1', 'k')).toEqual(negative);
    for (const text of ['x', '-', '+1', ' 1', '01', '1.0', '', '-0']) expect(evalWith(text, 'k')).toEqual(notInteger);
  });

  test('EVALSHA checks the count before looking the script up', () => {
    const sha = '0123456789012345678901234567890123456789';
    expect(redis.exec(['EVALSHA', sha, 'x'])).toEqual(notInteger);
    expect(redis.exec(['EVALSHA', sha, '1'])).toEqual(tooMany);
    expect(redis.exec(['EVALSHA', sha, '1', 'k'])).toEqual(error('NOSCRIPT No matching script. Please use EVAL.'));
  });
});
