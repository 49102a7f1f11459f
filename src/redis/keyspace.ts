import { SortedSet } from './sortedSet';

/** A stored value. Strings are byte strings: one character per byte. */
export type RedisValue =
  | { type: 'string'; value: string }
  | { type: 'hash'; value: Map<string, string> }
  | { type: 'list'; value: string[] }
  | { type: 'zset'; value: SortedSet };

export type RedisType = RedisValue['type'];

/** One key's value and its absolute expiry time (unix ms), if any. */
export interface Entry {
  value: RedisValue;
  expiresAtMs: number | null;
  /** Last access (node clock, ms) and access count: what LRU and LFU eviction compare. */
  accessedAtMs?: number;
  hits?: number;
}

/**
 * The key → value map with Redis's expiry rule: a key is expired when `now > expiresAtMs`
 * (strictly greater, so a key whose expiry equals the current millisecond still exists).
 *
 * Expiry is lazy: a lookup that finds an expired key deletes it and reports it absent. A
 * replica must not delete (it waits for the primary's DEL), so `expiresKeys` can turn the
 * deletion off while lookups still report the key absent.
 */
export class Keyspace {
  private readonly map = new Map<string, Entry>();
  /** When false (a replica), expired keys read as absent but stay stored. */
  expiresKeys = true;
  /**
   * True while a replica applies its primary's stream: Redis treats keys as not expired for
   * the master client, so the primary's DEL of an expired key really deletes it.
   */
  seesExpired = false;

  constructor(
    private readonly now: () => number,
    private readonly onExpired: (key: string) => void = () => {},
  ) {}

  /** Tells whether an entry is logically expired at time `nowMs`. */
  static isExpired(entry: Entry, nowMs: number): boolean {
    return entry.expiresAtMs !== null && nowMs > entry.expiresAtMs;
  }

  /** Finds a live entry, lazily deleting it when expired. */
  lookup(key: string): Entry | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    // Read once: the clock is the node's virtual time, which cannot move during a lookup.
    const nowMs = this.now();
    if (this.seesExpired || !Keyspace.isExpired(entry, nowMs)) {
      entry.accessedAtMs = nowMs;
      entry.hits = (entry.hits ?? 0) + 1;
      return entry;
    }
    if (this.expiresKeys) {
      this.map.delete(key);
      this.onExpired(key);
    }
    return undefined;
  }

  /** Reads a live entry without any side effect (for inspectors). */
  peek(key: string, nowMs: number): Entry | undefined {
    const entry = this.map.get(key);
    if (entry === undefined || Keyspace.isExpired(entry, nowMs)) return undefined;
    return entry;
  }

  /** Stores a value, replacing any previous one; the TTL is kept only when `keepTtl`. */
  set(key: string, value: RedisValue, keepTtl = false): void {
    const previous = this.map.get(key);
    const expiresAtMs = keepTtl && previous ? previous.expiresAtMs : null;
    if (previous === undefined) this.map.set(key, { value, expiresAtMs, accessedAtMs: this.now(), hits: 1 });
    else {
      previous.value = value;
      previous.expiresAtMs = expiresAtMs;
    }
  }

  /** Deletes a key if stored (expired or not); returns whether it was there. */
  delete(key: string): boolean {
    return this.map.delete(key);
  }

  /** Sets or clears the absolute expiry of a stored key. */
  setExpiry(key: string, expiresAtMs: number | null): void {
    const entry = this.map.get(key);
    if (entry) entry.expiresAtMs = expiresAtMs;
  }

  /** Every stored key, in insertion order, expired or not. */
  keys(): string[] {
    return [...this.map.keys()];
  }

  /** Stored keys that carry a TTL, in insertion order (the active-expiry sample space). */
  keysWithTtl(): string[] {
    const result: string[] = [];
    for (const [key, entry] of this.map) if (entry.expiresAtMs !== null) result.push(key);
    return result;
  }

  /**
   * The earliest expiry (unix ms) among stored keys, expired or not yet; null when no key has a
   * TTL. It tells the node when its next active-expiry cycle has something to delete.
   */
  earliestExpiry(): number | null {
    let earliest: number | null = null;
    for (const entry of this.map.values()) {
      if (entry.expiresAtMs !== null && (earliest === null || entry.expiresAtMs < earliest))
        earliest = entry.expiresAtMs;
    }
    return earliest;
  }

  /** The raw stored entry, expired or not. */
  raw(key: string): Entry | undefined {
    return this.map.get(key);
  }

  /** Number of stored keys, including expired ones not yet reclaimed (like DBSIZE). */
  get size(): number {
    return this.map.size;
  }

  /** Removes everything. */
  clear(): void {
    this.map.clear();
  }
}
