import { describe, expect, test } from 'vitest';
import { formatReply, parseCommandLine } from './cliFormat';
import { array, bulk, error, integer, nil, status } from './reply';
import { formatDouble } from './numbers';
import { sha1Hex } from './sha1';
import { keySlot } from './keySlot';

describe('formatReply prints like redis-cli --no-raw', () => {
  test('scalars', () => {
    expect(formatReply(status('OK'))).toBe('OK');
    expect(formatReply(nil)).toBe('(nil)');
    expect(formatReply(integer(-3))).toBe('(integer) -3');
    expect(formatReply(bulk('a"b\n\x00\xff'))).toBe('"a\\"b\\n\\x00\\xff"');
    expect(formatReply(error('ERR boom'))).toBe('(error) ERR boom');
    expect(formatReply(array([]))).toBe('(empty array)');
    expect(formatReply(array(null))).toBe('(nil)');
  });

  test('nested arrays are numbered and indented by index width', () => {
    const reply = array([integer(1), array([integer(2), array([integer(3)])]), bulk('x')]);
    expect(formatReply(reply)).toBe('1) (integer) 1\n2) 1) (integer) 2\n   2) 1) (integer) 3\n3) "x"');
    const ten = array(Array.from({ length: 10 }, (_, i) => bulk(String(i))));
    expect(formatReply(ten).split('\n').slice(8)).toEqual([' 9) "8"', '10) "9"']);
  });
});

describe('parseCommandLine splits like redis-cli', () => {
  test('quotes and escapes', () => {
    expect(parseCommandLine('set k "a b\\x41\\n"')).toEqual(['set', 'k', 'a bA\n']);
    expect(parseCommandLine("set k 'it\\'s'")).toEqual(['set', 'k', "it's"]);
    expect(parseCommandLine('set k ab"c d"')).toEqual(['set', 'k', 'abc d']);
    expect(parseCommandLine('   ')).toEqual([]);
  });

  test('unbalanced or glued quotes are invalid', () => {
    expect(parseCommandLine('set k "abc')).toBeNull();
    expect(parseCommandLine("set k 'abc")).toBeNull();
    expect(parseCommandLine('set k "abc"def')).toBeNull();
  });
});

describe('numbers, SHA1 and key slots match Redis', () => {
  test('%.17g doubles', () => {
    expect(formatDouble(0.1)).toBe('0.10000000000000001');
    expect(formatDouble(2.5)).toBe('2.5');
    expect(formatDouble(1.2345678901234568e17)).toBe('1.2345678901234568e+17');
    expect(formatDouble(0.00001)).toBe('1.0000000000000001e-05');
    expect(formatDouble(-Infinity)).toBe('-inf');
  });

  test('sha1 of script bodies', () => {
    expect(sha1Hex('return 1')).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
  });

  test('REDIS.md key slot vectors', () => {
    const vectors: Array<[string, number]> = [
      ['foo', 12182],
      ['bar', 5061],
      ['lock', 8718],
      ['{user1}.lock', 8106],
      ['123456789', 12739],
      ['', 0],
      ['{}foo', 9500],
      ['foo{}{bar}', 8363],
      ['foo{{bar}}zap', 4015],
      ['foo{bar}{zap}', 5061],
    ];
    for (const [key, slot] of vectors) expect(keySlot(key)).toBe(slot);
  });
});
