import { describe, expect, test } from 'vitest';
import { RedisServer } from './server';
import { bulk, error, integer, nil, ok } from './reply';

// Redis matches command names and options without regard to case. The command path has fast
// lookups for the usual spellings (all upper or all lower case); these tests pin down that
// every other spelling still behaves the same.

function server(): RedisServer {
  return new RedisServer({ clock: () => 1_000_000, random: () => 0.5 });
}

describe('command names and options in any case', () => {
  test('a command runs whether spelled upper, lower or mixed case', () => {
    const redis = server();
    expect(redis.exec(['SET', 'k', '1'])).toEqual(ok);
    expect(redis.exec(['incr', 'k'])).toEqual(integer(2));
    expect(redis.exec(['InCr', 'k'])).toEqual(integer(3));
    expect(redis.exec(['gEt', 'k'])).toEqual(bulk('3'));
  });

  test('an unknown command echoes its name as sent, and arity errors name it in lower case', () => {
    const redis = server();
    expect(redis.exec(['SETT', 'k'])).toEqual(error("ERR unknown command 'SETT', with args beginning with: 'k' "));
    expect(redis.exec(['GeT'])).toEqual(error("ERR wrong number of arguments for 'get' command"));
  });

  test('subcommands resolve in any case', () => {
    const redis = server();
    expect(redis.exec(['CONFIG', 'GET', 'maxmemory'])).toEqual(redis.exec(['config', 'get', 'maxmemory']));
    expect(redis.exec(['Config', 'Nope'])).toEqual(error("ERR unknown subcommand 'Nope'. Try CONFIG HELP."));
  });

  test('SET options count in any case, and a misspelt one is a syntax error', () => {
    const redis = server();
    expect(redis.exec(['set', 'lock', 'a', 'nX', 'Px', '100'])).toEqual(ok);
    expect(redis.exec(['SET', 'lock', 'b', 'Nx', 'pX', '100'])).toEqual(nil);
    expect(redis.exec(['SET', 'lock', 'b', 'xX', 'gEt', 'kEePtTl'])).toEqual(bulk('a'));
    expect(redis.exec(['PTTL', 'lock'])).toEqual(integer(100));
    expect(redis.exec(['SET', 'lock', 'c', 'NXX'])).toEqual(error('ERR syntax error'));
    expect(redis.exec(['SET', 'lock', 'c', 'eX', '0'])).toEqual(error("ERR invalid expire time in 'set' command"));
    expect(redis.exec(['SET', 'lock', 'c', 'EX', '1x'])).toEqual(error('ERR value is not an integer or out of range'));
  });
});
