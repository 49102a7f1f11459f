import { describe, expect, it } from 'vitest';
import { inferMeaning } from './clientSteps';

const COMPARE_AND_DELETE =
  "local held = redis.call('GET', KEYS[1]) if held == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

describe('what a step means when its author did not say', () => {
  it('reads the plain commands of a lock', () => {
    expect(inferMeaning(['SET', 'lock', 'v', 'NX', 'PX', '4000'])).toBe('acquire');
    expect(inferMeaning(['SETNX', 'lock', 'v'])).toBe('acquire');
    expect(inferMeaning(['DEL', 'lock'])).toBe('release');
    expect(inferMeaning(['PEXPIRE', 'lock', '4000'])).toBe('renew');
    expect(inferMeaning(['INCR', 'fence'])).toBe('fence');
    expect(inferMeaning(['GET', 'lock'])).toBe('command');
  });

  it('reads a script by what it does to its first key: the compare-and-delete is a release', () => {
    expect(inferMeaning(['EVAL', COMPARE_AND_DELETE, '1', 'lock', 'v'])).toBe('release');
    expect(
      inferMeaning([
        'EVAL',
        'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.pcall("unlink", KEYS[1]) end',
        '1',
        'lock',
        'v',
      ]),
    ).toBe('release');
    expect(
      inferMeaning([
        'EVAL',
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0",
        '1',
        'lock',
        'v',
        '4000',
      ]),
    ).toBe('renew');
  });

  it('leaves a script that only reads, one with no keys, and an EVALSHA as plain commands', () => {
    expect(inferMeaning(['EVAL', "return redis.call('GET', KEYS[1])", '1', 'lock'])).toBe('command');
    expect(inferMeaning(['EVAL', "return redis.call('DEL', 'lock')", '0'])).toBe('command');
    expect(inferMeaning(['EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '1', 'lock', 'v'])).toBe('command');
  });
});
