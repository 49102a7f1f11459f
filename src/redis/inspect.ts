import type { Keyspace, RedisValue } from './keyspace';
import { formatDouble } from './numbers';

/** Short human summaries of stored values, and the rough memory model behind maxmemory. */

const SUMMARY_ITEMS = 5;

function more(total: number): string {
  return total > SUMMARY_ITEMS ? `, … +${total - SUMMARY_ITEMS}` : '';
}

/** The value for a string, or a one-line summary such as `{f: v}` or `[a, b]` for the others. */
export function describeValue(value: RedisValue): string {
  switch (value.type) {
    case 'string':
      return value.value;
    case 'hash': {
      const items = [...value.value].slice(0, SUMMARY_ITEMS).map(([f, v]) => `${f}: ${v}`);
      return `{${items.join(', ')}${more(value.value.size)}}`;
    }
    case 'list':
      return `[${value.value.slice(0, SUMMARY_ITEMS).join(', ')}${more(value.value.length)}]`;
    case 'zset': {
      const items = value.value
        .entries()
        .slice(0, SUMMARY_ITEMS)
        .map((e) => `${e.member}: ${formatDouble(e.score)}`);
      return `{${items.join(', ')}${more(value.value.size)}}`;
    }
  }
}

/** What an empty redis-server reports as used_memory, roughly (Debian 7.0 build). */
export const BASELINE_MEMORY_BYTES = 880_000;

function valueBytes(value: RedisValue): number {
  switch (value.type) {
    case 'string':
      return value.value.length;
    case 'hash':
      return [...value.value].reduce((sum, [f, v]) => sum + f.length + v.length + 16, 0);
    case 'list':
      return value.value.reduce((sum, item) => sum + item.length + 11, 0);
    case 'zset':
      return value.value.entries().reduce((sum, e) => sum + e.member.length + 24, 0);
  }
}

/**
 * A deliberately simple memory model: a fixed baseline plus key and value bytes plus a
 * per-key overhead. Good enough for "maxmemory 1 means every write is refused"; the eviction
 * model can supply a finer one through RedisServerOptions.memory.
 */
export function estimateUsedMemoryBytes(db: Keyspace): number {
  let total = BASELINE_MEMORY_BYTES;
  for (const key of db.keys()) {
    const entry = db.raw(key);
    if (entry) total += 56 + key.length + valueBytes(entry.value);
  }
  return total;
}
