import { describe, expect, it } from 'vitest';
import { simTime } from '../sim/time';
import { Trace } from '../sim/trace';
import type { TraceEvent } from '../sim/traceEvents';
import { runCheckers } from './invariants';
import { checkProgress } from './progress';
import { checkSingleLease } from './singleLease';

/** Builds a small trace by hand: [time, kind, actor, data]. */
function trace(rows: [number, string, string, object][]): TraceEvent[] {
  const t = new Trace();
  t.append(simTime(0), 'run.start', 'world', { scenario: 't', seed: 1, actors: [] });
  for (const [at, kind, actor, data] of rows) t.append(simTime(at), kind as never, actor, data as never);
  return t.toArray();
}

describe('single-lease (Redis view)', () => {
  const grants = trace([
    [0, 'lease.granted', 'r1', { key: 'lock', owner: 'A', value: 'a', expiresAtMs: 10_000 }],
    [5, 'lease.granted', 'r2', { key: 'lock', owner: 'B', value: 'b', expiresAtMs: 10_000 }],
  ]);

  it('breaks when two nodes each grant the same key to a different owner (one node is a holder)', () => {
    const v = checkSingleLease(grants, () => 1);
    expect(v.holds).toBe(false);
    expect(v.atMs).toBe(5);
    expect(v.eventIds).toEqual([1, 2]);
  });

  it('holds under a Redlock quorum of 2 of 3: one node each is not a majority', () => {
    expect(checkSingleLease(grants, () => 2).holds).toBe(true);
  });
});

describe('progress', () => {
  it('flags a wait with no progress longer than the limit, at the moment the limit passed', () => {
    const events = trace([
      [0, 'lock.request', 'A', { key: 'x' }],
      [3, 'lock.acquired', 'A', { key: 'x', value: 'a', token: null, ttlMs: 10_000 }],
      [4, 'lock.request', 'B', { key: 'x' }],
      [9_000, 'lock.acquired', 'B', { key: 'x', value: 'b', token: null, ttlMs: 10_000 }],
    ]);
    expect(checkProgress(events, 10_000).holds).toBe(true);
    const v = checkProgress(events, 5_000);
    expect(v.holds).toBe(false);
    expect(v.atMs).toBe(5_004);
  });

  it('does not count idle time when nobody is waiting', () => {
    const events = trace([
      [0, 'lock.request', 'A', { key: 'x' }],
      [3, 'lock.acquired', 'A', { key: 'x', value: 'a', token: null, ttlMs: 10_000 }],
      [50_000, 'lock.released', 'A', { key: 'x', deleted: true }],
    ]);
    expect(checkProgress(events, 5_000).holds).toBe(true);
  });
});

describe('lock patterns, read from the trace alone', () => {
  // Two readers of a read-write lock hold it together; run.start is all that says they may.
  const readers = (lock: object | undefined): TraceEvent[] => {
    const t = new Trace();
    const actors = ['R1', 'R2'].map((id) => ({ id, label: id, role: 'client', ...(lock && { lock }) }));
    t.append(simTime(0), 'run.start', 'world', { scenario: 't', seed: 1, actors } as never);
    t.append(simTime(1), 'lock.acquired', 'R1', { key: 'lock', value: 'a', token: null, ttlMs: 5_000 });
    t.append(simTime(2), 'lock.acquired', 'R2', { key: 'lock', value: 'b', token: null, ttlMs: 5_000 });
    t.append(simTime(900), 'lock.released', 'R1', { key: 'lock', deleted: true });
    t.append(simTime(901), 'lock.released', 'R2', { key: 'lock', deleted: false });
    t.append(simTime(1_000), 'run.end', 'world', { reason: 'idle' });
    return t.toArray();
  };
  const judge = (events: TraceEvent[]) =>
    runCheckers(events, { quorumOf: () => 1, progressWithinMs: 10_000, resourceKind: 'document', expected: [] });

  it('lets readers share when run.start records them as readers, with no facts passed beside the trace', () => {
    const verdicts = judge(readers({ keys: ['lock'], shares: 'reader' }));
    expect(verdicts.find((v) => v.invariant === 'single-holder')?.holds).toBe(true);
    expect(verdicts.find((v) => v.invariant === 'readers-or-one-writer')?.holds).toBe(true);
  });

  it('calls the same beliefs two holders when the clients hold a plain lock', () => {
    const verdicts = judge(readers(undefined));
    expect(verdicts.find((v) => v.invariant === 'single-holder')?.holds).toBe(false);
    expect(verdicts.find((v) => v.invariant === 'readers-or-one-writer')).toBeUndefined();
  });
});
