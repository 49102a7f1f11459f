import { describe, expect, test } from 'vitest';
import { Keyspace } from './keyspace';

describe('Keyspace expiry', () => {
  test('a key whose expiry equals now still exists; one millisecond later it is gone', () => {
    let now = 1000;
    const expired: string[] = [];
    const db = new Keyspace(
      () => now,
      (key) => expired.push(key),
    );
    db.set('k', { type: 'string', value: 'v' });
    db.setExpiry('k', 1500);
    now = 1500;
    expect(db.lookup('k')?.value).toEqual({ type: 'string', value: 'v' });
    now = 1501;
    expect(db.lookup('k')).toBeUndefined();
    expect(expired).toEqual(['k']);
    expect(db.size).toBe(0);
  });

  test('peek never deletes, even an expired key', () => {
    const db = new Keyspace(() => 2000);
    db.set('k', { type: 'string', value: 'v' });
    db.setExpiry('k', 1000);
    expect(db.peek('k', 2000)).toBeUndefined();
    expect(db.size).toBe(1);
  });

  test('a replica reads expired keys as absent but keeps them stored', () => {
    const db = new Keyspace(() => 2000);
    db.expiresKeys = false;
    db.set('k', { type: 'string', value: 'v' });
    db.setExpiry('k', 1000);
    expect(db.lookup('k')).toBeUndefined();
    expect(db.size).toBe(1);
  });

  test('set drops the TTL unless asked to keep it', () => {
    const db = new Keyspace(() => 0);
    db.set('k', { type: 'string', value: 'v' });
    db.setExpiry('k', 500);
    db.set('k', { type: 'string', value: 'w' }, true);
    expect(db.raw('k')?.expiresAtMs).toBe(500);
    db.set('k', { type: 'string', value: 'x' });
    expect(db.raw('k')?.expiresAtMs).toBeNull();
  });
});
