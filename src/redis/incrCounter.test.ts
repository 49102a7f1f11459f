import { describe, expect, test } from 'vitest';
import { RedisServer } from './server';
import { bulk, error, integer } from './reply';

// INCR and DECR step short counters in doubles and everything else in BigInts; both paths
// must answer and store exactly what redis-server 7.0.15 does (checked with redis-cli).

const notInteger = error('ERR value is not an integer or out of range');

function stepped(command: 'INCR' | 'DECR', start: string): { reply: unknown; stored: unknown } {
  const redis = new RedisServer({ clock: () => 1_000_000, random: () => 0.5 });
  redis.exec(['SET', 'k', start]);
  return { reply: redis.exec([command, 'k']), stored: redis.exec(['GET', 'k']) };
}

describe('INCR and DECR', () => {
  test.each([
    ['0', '1', '-1'],
    ['-1', '0', '-2'],
    ['41', '42', '40'],
    ['999999999999999', '1000000000000000', '999999999999998'],
    ['-999999999999999', '-999999999999998', '-1000000000000000'],
    ['9999999999999999', '10000000000000000', '9999999999999998'],
    ['9223372036854775806', '9223372036854775807', '9223372036854775805'],
  ])('%s steps to %s and %s', (start, up, down) => {
    expect(stepped('INCR', start)).toEqual({ reply: integer(BigInt(up)), stored: bulk(up) });
    expect(stepped('DECR', start)).toEqual({ reply: integer(BigInt(down)), stored: bulk(down) });
  });

  test.each(['01', '-0', ' 1', '+1', '-', '1.0', ''])('%j is not an integer', (start) => {
    expect(stepped('INCR', start)).toEqual({ reply: notInteger, stored: bulk(start) });
    expect(stepped('DECR', start)).toEqual({ reply: notInteger, stored: bulk(start) });
  });

  test('a missing key counts from zero and a counter keeps its TTL', () => {
    const redis = new RedisServer({ clock: () => 1_000_000, random: () => 0.5 });
    expect(redis.exec(['INCR', 'fence'])).toEqual(integer(1));
    expect(redis.exec(['DECR', 'other'])).toEqual(integer(-1));
    redis.exec(['PEXPIRE', 'fence', '5000']);
    expect(redis.exec(['INCR', 'fence'])).toEqual(integer(2));
    expect(redis.exec(['PTTL', 'fence'])).toEqual(integer(5000));
  });
});
