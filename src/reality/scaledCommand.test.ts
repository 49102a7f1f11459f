import { describe, expect, it } from 'vitest';
import { commandLeaseMs, scaledCommand } from './scaledCommand';

describe('a step list command at another speed', () => {
  it('scales the lease a command asks for, in milliseconds', () => {
    expect(scaledCommand(['SET', 'lock', '{value}', 'NX', 'PX', '4000'], 0.25)).toEqual([
      'SET',
      'lock',
      '{value}',
      'NX',
      'PX',
      '1000',
    ]);
    // EX and EXPIRE are seconds: 4 s at a quarter speed is 1,000 ms, so they become PX and PEXPIRE.
    expect(scaledCommand(['SET', 'lock', 'v', 'EX', '4', 'NX'], 0.25)).toEqual([
      'SET',
      'lock',
      'v',
      'PX',
      '1000',
      'NX',
    ]);
    expect(scaledCommand(['EXPIRE', 'lock', '4'], 0.25)).toEqual(['PEXPIRE', 'lock', '1000']);
    expect(scaledCommand(['EXPIRE', 'lock', '3', 'NX'], 2)).toEqual(['PEXPIRE', 'lock', '6000', 'NX']);
    expect(scaledCommand(['SETEX', 'lock', '2', 'v'], 0.5)).toEqual(['PSETEX', 'lock', '1000', 'v']);
    // Never below a millisecond; a placeholder is filled with the scaled TTL when the step runs.
    expect(scaledCommand(['PEXPIRE', 'lock', '1'], 0.25)).toEqual(['PEXPIRE', 'lock', '1']);
    expect(scaledCommand(['SET', 'lock', 'v', 'PX', '{ttl}'], 0.25)).toEqual(['SET', 'lock', 'v', 'PX', '{ttl}']);
  });

  it('leaves commands without durations alone', () => {
    for (const argv of [
      ['SETNX', 'lock', '{value}'],
      ['DEL', 'lock'],
      ['INCR', 'fence'],
      ['GET', 'lock'],
    ])
      expect(scaledCommand(argv, 0.25)).toEqual(argv);
    const release = [
      'EVAL',
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      '1',
      'lock',
      '{value}',
    ];
    expect(scaledCommand(release, 0.25)).toEqual(release);
  });

  it('refuses what it cannot tell is a duration, except at real time', () => {
    const acquire = [
      'EVAL',
      "redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])",
      '1',
      'lock',
      '{value}',
      '2000',
    ];
    expect(scaledCommand(acquire, 0.25)).toBeNull();
    expect(scaledCommand(acquire, 1)).toEqual(acquire);
    expect(scaledCommand(['SET', 'lock', 'v', 'PXAT', '1700000000000'], 0.5)).toBeNull();
    expect(scaledCommand(['PEXPIREAT', 'lock', '1700000000000'], 0.5)).toBeNull();
    expect(scaledCommand(['SET', 'lock', 'v', 'PX', '-5'], 0.5)).toBeNull();
  });

  it("reads the lease a command gives its key, a script's from the argument it names", () => {
    expect(commandLeaseMs(['SET', 'lock', 'v', 'NX', 'PX', '4000'])).toBe(4000);
    expect(commandLeaseMs(['SET', 'lock', 'v', 'EX', '3'])).toBe(3000);
    expect(commandLeaseMs(['SETNX', 'lock', 'v'])).toBeNull();
    expect(commandLeaseMs(['SET', 'lock', 'v', 'NX'])).toBeNull();
    const script =
      "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end";
    expect(commandLeaseMs(['EVAL', script, '2', 'lock', 'fence', 'v', '2000'])).toBe(2000);
    expect(commandLeaseMs(['EVAL', 'return 1', '0'])).toBeUndefined();
  });
});
