import { describe, expect, it } from 'vitest';
import { consoleWarning, type ConsoleFacts, type LiveLease } from './consoleWarnings';

function facts(leases: Record<string, string | null> = {}, lockKeys: string[] = ['lock']): ConsoleFacts {
  return {
    node: 'Primary',
    lockKeys: new Set(lockKeys),
    leases: new Map(Object.entries(leases).map(([k, holder]): [string, LiveLease] => [k, { holder }])),
  };
}

describe('the console warns before a destructive command', () => {
  it("warns that DEL, UNLINK and GETDEL take a client's lock from under it, naming the holder", () => {
    for (const argv of [
      ['DEL', 'lock'],
      ['unlink', 'other', 'lock'],
      ['GETDEL', 'lock'],
    ]) {
      const warning = consoleWarning(argv, facts({ lock: 'Barista A' }));
      expect(warning).toMatch(/the lock Barista A holds: the console does not hold it/);
      expect(warning).toMatch(/check that the value is its own token/);
    }
  });

  it('stays quiet for a DEL of a lock nobody holds, of the console’s own lock, or of other keys', () => {
    expect(consoleWarning(['DEL', 'lock'], facts())).toBeNull();
    expect(consoleWarning(['DEL', 'lock'], facts({ lock: null }))).toBeNull();
    expect(consoleWarning(['DEL', 'note'], facts({ lock: 'Barista A' }))).toBeNull();
    expect(consoleWarning(['GET', 'lock'], facts({ lock: 'Barista A' }))).toBeNull();
  });

  it('names every held lock one DEL removes', () => {
    const warning = consoleWarning(['DEL', 'a', 'b', 'a'], facts({ a: 'Barista A', b: 'Barista B' }, ['a', 'b']));
    expect(warning).toContain('a, the lock Barista A holds; b, the lock Barista B holds');
    expect(warning).toContain('while Barista A and Barista B still believes');
  });

  it('treats an EXPIRE of zero or less as a delete, and a positive one as harmless', () => {
    expect(consoleWarning(['EXPIRE', 'lock', '0'], facts({ lock: 'Barista A' }))).toMatch(
      /^EXPIRE with 0 deletes lock, the lock Barista A holds/,
    );
    expect(consoleWarning(['PEXPIRE', 'lock', '-5'], facts({ lock: 'Barista A' }))).toMatch(/^PEXPIRE with -5 deletes/);
    expect(consoleWarning(['EXPIRE', 'lock', '30'], facts({ lock: 'Barista A' }))).toBeNull();
  });

  it('warns that FLUSHALL and FLUSHDB delete every key, listing the held locks', () => {
    expect(consoleWarning(['FLUSHALL'], facts({ lock: 'Barista A', mine: null }))).toBe(
      'FLUSHALL deletes every key on Primary, including lock (held by Barista A): any client that thinks it holds a lock there no longer does, and the next client to ask gets it.',
    );
    expect(consoleWarning(['flushdb', 'ASYNC'], facts())).toMatch(/^FLUSHDB deletes every key on Primary: /);
  });

  it('warns about a lock taken without an expiry, and not about one with a TTL', () => {
    expect(consoleWarning(['SET', 'lock', 'me', 'NX'], facts())).toMatch(
      /^SET … NX takes lock with no expiry: if the holder crashes or hangs, the lock is never released\. Give it a TTL/,
    );
    expect(consoleWarning(['SETNX', 'lock', 'me'], facts())).toMatch(/^SETNX takes lock with no expiry/);
    expect(consoleWarning(['SET', 'lock', 'me', 'nx', 'px', '10000'], facts())).toBeNull();
    expect(consoleWarning(['SET', 'lock', 'me', 'EX', '10', 'NX'], facts())).toBeNull();
  });

  it('warns that PERSIST on a lock key makes it permanent, and that SET overwrites a held lock', () => {
    expect(consoleWarning(['PERSIST', 'lock'], facts())).toMatch(/^PERSIST removes the expiry of the lock lock: /);
    expect(consoleWarning(['PERSIST', 'note'], facts())).toBeNull();
    expect(consoleWarning(['SET', 'lock', 'x', 'PX', '100'], facts({ lock: 'Barista B' }))).toMatch(
      /^SET overwrites lock, the lock Barista B holds/,
    );
    expect(consoleWarning(['SET', 'note', 'x'], facts({ lock: 'Barista B' }))).toBeNull();
  });

  it('ignores an empty or unknown command', () => {
    expect(consoleWarning([], facts())).toBeNull();
    expect(consoleWarning(['DEL'], facts({ lock: 'Barista A' }))).toBeNull();
  });
});

describe('the console warns before a memory setting that can take every lock', () => {
  it('says a small maxmemory refuses every write, lock SETs included', () => {
    expect(consoleWarning(['CONFIG', 'SET', 'maxmemory', '1'], facts())).toBe(
      "CONFIG SET maxmemory 1 caps Primary at 1 byte (less than an empty Redis already uses): once it is over, the default policy (noeviction) refuses every write with OOM, a lock's SET included, and an eviction policy deletes keys to make room, locks included.",
    );
    expect(consoleWarning(['config', 'set', 'MAXMEMORY', '100mb'], facts())).toMatch(
      /^CONFIG SET maxmemory 100mb caps Primary at 104,857,600 bytes: once/,
    );
  });

  it('says an eviction policy can delete a held lock', () => {
    expect(consoleWarning(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru'], facts())).toMatch(
      /^CONFIG SET maxmemory-policy volatile-lru lets Primary delete keys .* a lock is a key like any other/,
    );
  });

  it('stays quiet for lifting the cap, keeping noeviction, other settings and CONFIG GET', () => {
    expect(consoleWarning(['CONFIG', 'SET', 'maxmemory', '0'], facts())).toBeNull();
    expect(consoleWarning(['CONFIG', 'SET', 'maxmemory-policy', 'noeviction'], facts())).toBeNull();
    expect(consoleWarning(['CONFIG', 'SET', 'hz', '100'], facts())).toBeNull();
    expect(consoleWarning(['CONFIG', 'GET', 'maxmemory'], facts())).toBeNull();
    expect(consoleWarning(['CONFIG', 'SET', 'maxmemory', 'lots'], facts())).toBeNull();
  });
});
