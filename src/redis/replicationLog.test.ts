import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKLOG_BYTES, ReplicationLog, respBytes } from './replicationLog';

const write = (i: number): string[][] => [['SET', `key:${i}`, 'x'.repeat(i % 300)]];

describe('replication backlog', () => {
  it('counts offsets in RESP bytes, like Redis', () => {
    const log = new ReplicationLog(100);
    const batch = log.append([['SET', 'k', 'v']]);
    expect(respBytes(['SET', 'k', 'v'])).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n'.length);
    expect(batch).toMatchObject({ start: 100, end: 100 + respBytes(['SET', 'k', 'v']) });
    expect(log.offset).toBe(batch.end);
  });

  it('resends what a replica missed, and asks for a full resync once the backlog no longer reaches back', () => {
    const log = new ReplicationLog();
    const offsets: number[] = [0];
    for (let i = 0; i < 20_000; i++) offsets.push(log.append(write(i)).end);
    expect(log.offset).toBeGreaterThan(2 * BACKLOG_BYTES);
    // A replica only a few writes behind gets exactly the batches after its offset.
    const recent = log.since(offsets[19_990]!)!;
    expect(recent.map((b) => b.effects[0]![1])).toEqual(Array.from({ length: 10 }, (_, i) => `key:${19_990 + i}`));
    // One from the start of the stream is too far behind: the first megabyte is gone.
    expect(log.since(offsets[0]!)).toBeNull();
    expect(log.since(log.offset)).toEqual([]);
  });

  it('keeps one contiguous megabyte whatever the write sizes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 300 }), (sizes) => {
        const log = new ReplicationLog();
        const ends: number[] = [];
        for (const size of sizes) ends.push(log.append([['SET', 'k', 'v'.repeat(size)]]).end);
        // From the offset before each batch: either every later batch, in order, or null once dropped.
        let previous = 0;
        let sawNull = false;
        for (let i = ends.length - 1; i >= 0; i--) {
          const start = i === 0 ? 0 : ends[i - 1]!;
          const batches = log.since(start);
          if (batches === null) {
            sawNull = true;
            continue;
          }
          expect(sawNull).toBe(false); // only the oldest can be gone
          expect(batches.map((b) => b.end)).toEqual(ends.slice(i));
          previous = start;
        }
        // The newest batch is always kept, and what is kept covers at most ~1 MB plus that batch.
        expect(log.since(ends.at(-2) ?? 0)).not.toBeNull();
        expect(log.offset - previous).toBeLessThanOrEqual(BACKLOG_BYTES + 200_100);
      }),
      { numRuns: 60 },
    );
  });
});
