import { describe, expect, it } from 'vitest';
import { simTime } from '../sim/time';
import { Trace } from '../sim/trace';
import type { TraceEvent } from '../sim/traceEvents';
import { checkWritesInLeaseOrder } from './leaseOrder';
import { checkReleasedByOwner } from './releasedByOwner';
import { checkBoundedWait } from './waiting';

/** Builds a small trace by hand: [time, kind, actor, data]; ids count from 1 after run.start. */
function trace(rows: [number, string, string, object][]): TraceEvent[] {
  const t = new Trace();
  t.append(simTime(0), 'run.start', 'world', {
    scenario: 't',
    seed: 1,
    actors: [{ id: 'r1', label: 'r1', role: 'redis' }],
  });
  for (const [at, kind, actor, data] of rows) t.append(simTime(at), kind as never, actor, data as never);
  return t.toArray();
}

const acquired = (at: number, client: string): [number, string, string, object] => [
  at,
  'lock.acquired',
  client,
  { key: 'lock', value: client, token: null, ttlMs: 1000 },
];
const granted = (at: number, owner: string): [number, string, string, object] => [
  at,
  'lease.granted',
  'r1',
  { key: 'lock', owner, value: owner, expiresAtMs: at + 1000 },
];
const ended = (at: number, owner: string, reason: string): [number, string, string, object] => [
  at,
  'lease.ended',
  'r1',
  { key: 'lock', owner, reason },
];
const sent = (at: number, client: string): [number, string, string, object] => [
  at,
  'net.send',
  client,
  { msg: at, to: 'r1', label: 'DEL lock' },
];
const released = (at: number, client: string, deleted: boolean): [number, string, string, object] => [
  at,
  'lock.released',
  client,
  { key: 'lock', deleted },
];
const write = (at: number, from: string, accepted: boolean): [number, string, string, object] => [
  at,
  'resource.write',
  'espresso',
  { from, token: null, accepted },
];

describe('released-by-owner (Redis view of who deleted a lease)', () => {
  it("breaks when a lease is deleted while its owner still holds it, and names the other client's release", () => {
    const v = checkReleasedByOwner(
      trace([
        granted(0, 'A'),
        acquired(2, 'A'),
        ended(1000, 'A', 'expired'),
        granted(1100, 'B'),
        acquired(1102, 'B'),
        sent(1500, 'A'),
        ended(1501, 'B', 'deleted'),
        released(1503, 'A', true),
      ]),
    );
    expect(v.holds).toBe(false);
    expect(v.atMs).toBe(1501);
    expect(v.eventIds).toEqual([4, 7]);
    expect(v.explanation).toMatch(/B's lease on “lock” was deleted at 1\.501 s while B still held it, by A's release/);
  });

  it('holds when the owner deletes its own lease (its belief ends when the release is sent), or the lease expires', () => {
    const v = checkReleasedByOwner(
      trace([
        granted(0, 'A'),
        acquired(2, 'A'),
        sent(500, 'A'),
        ended(501, 'A', 'deleted'),
        released(503, 'A', true),
        granted(600, 'B'),
        acquired(602, 'B'),
        ended(1600, 'B', 'expired'),
      ]),
    );
    expect(v.holds).toBe(true);
  });
});

describe('writes-in-lease-order (the resource, judged by lease order, not tokens)', () => {
  it("breaks when an older lease's write is accepted after a newer lease's write", () => {
    const v = checkWritesInLeaseOrder(
      trace([acquired(0, 'A'), acquired(1100, 'B'), write(1200, 'B', true), write(1300, 'A', true)]),
    );
    expect(v.holds).toBe(false);
    expect(v.eventIds).toEqual([3, 4]);
    expect(v.explanation).toMatch(/accepted A's write \(its lease from 0 ms\) after B's/);
  });

  it('holds when the stale write comes first, is refused, or was made without any lease', () => {
    expect(
      checkWritesInLeaseOrder(
        trace([acquired(0, 'A'), acquired(1100, 'B'), write(1150, 'A', true), write(1200, 'B', true)]),
      ).holds,
    ).toBe(true);
    expect(
      checkWritesInLeaseOrder(
        trace([acquired(0, 'A'), acquired(1100, 'B'), write(1200, 'B', true), write(1300, 'A', false)]),
      ).holds,
    ).toBe(true);
    expect(
      checkWritesInLeaseOrder(
        trace([
          acquired(0, 'A'),
          [50, 'lock.failed', 'C', { key: 'lock', attempts: 1 }],
          acquired(1100, 'B'),
          write(1200, 'B', true),
          write(1300, 'C', true),
        ]),
      ).holds,
    ).toBe(true);
  });
});

describe('bounded-wait leaves out the waiter’s own pauses', () => {
  const request = (at: number, client: string): [number, string, string, object] => [
    at,
    'lock.request',
    client,
    { key: 'lock' },
  ];
  it('does not call a client starved for the time it was frozen, but still counts the rest', () => {
    const frozen = trace([
      request(0, 'B'),
      [500, 'process.pause', 'B', { forMs: 8000 }],
      [8500, 'process.resume', 'B', {}],
      acquired(9000, 'B'),
    ]);
    expect(checkBoundedWait(frozen, 2000).holds).toBe(true);
    const starved = trace([
      request(0, 'B'),
      [500, 'process.pause', 'B', { forMs: 2000 }],
      [2500, 'process.resume', 'B', {}],
      acquired(9000, 'B'),
    ]);
    const v = checkBoundedWait(starved, 2000);
    expect(v.holds).toBe(false);
    expect(v.explanation).toMatch(/B waited 9 s before it got “lock”/);
  });
});

describe('released-by-owner and a release that is late, not foreign', () => {
  it("holds when the owner's own release, still unanswered (it timed out), deletes its lease", () => {
    const reply = (at: number, to: string): [number, string, string, object] => [
      at,
      'net.send',
      'r1',
      { msg: at, to, label: '(integer) 1' },
    ];
    const v = checkReleasedByOwner(
      trace([
        sent(0, 'B'),
        granted(1, 'B'),
        reply(1, 'B'),
        acquired(2, 'B'),
        sent(1000, 'B'),
        [1300, 'request.timeout', 'B', {}],
        ended(2000, 'B', 'deleted'),
        reply(2000, 'B'),
      ]),
    );
    expect(v.holds).toBe(true);
  });
});
