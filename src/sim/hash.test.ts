import { describe, expect, it } from 'vitest';
import { Hash64 } from './hash';

describe('Hash64 (FNV-1a, 64-bit)', () => {
  it('matches the published FNV-1a test vectors', () => {
    expect(new Hash64().hex()).toBe('cbf29ce484222325');
    expect(new Hash64().update('a').hex()).toBe('af63dc4c8601ec8c');
    expect(new Hash64().update('foobar').hex()).toBe('85944171f73967e8');
  });

  it('hashes text fed in pieces like the whole', () => {
    expect(new Hash64().update('foo').update('bar').hex()).toBe(new Hash64().update('foobar').hex());
  });
});
