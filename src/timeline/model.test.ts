import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventMap, TraceKind } from '../sim/traceEvents';
import { pausedBaristaFenced, pausedBaristaUnfenced } from './fixtures/pausedBarista';
import { describeInterval } from './layers/intervals';
import { buildTimelineModel, laneStateAt } from './model';
import type { Interval, TimelineModel } from './model';

const spans = (model: TimelineModel, kind: Interval['kind'], lane?: string) =>
  model.intervals.filter((i) => i.kind === kind && (lane === undefined || i.lane === lane)).map((i) => [i.startMs, i.endMs, i.owner]);

/** A tiny trace builder for edge cases. */
function trace(...rows: [number, TraceKind, string, unknown][]): TraceEvent[] {
  return rows.map(([at, kind, actor, data], id) => ({ id, at, kind, actor, data: data as TraceEventMap[TraceKind] }) as TraceEvent);
}

describe('buildTimelineModel on the paused-barista fixture', () => {
  const model = buildTimelineModel(pausedBaristaUnfenced.events, pausedBaristaUnfenced.verdicts);

  it('lays out one lane per actor in run.start order, without the world', () => {
    expect(model.lanes.map((l) => [l.id, l.label, l.role])).toEqual([
      ['A', 'Barista A', 'client'],
      ['B', 'Barista B', 'client'],
      ['r1', 'Redis', 'redis'],
      ['espresso', 'Espresso machine', 'resource'],
    ]);
  });

  it('draws leases as Redis held them: A until expiry, then B until deleted', () => {
    expect(spans(model, 'lease', 'r1')).toEqual([
      [1, 10001, 'A'],
      [11001, 14001, 'B'],
    ]);
    const [leaseA, leaseB] = model.intervals.filter((i) => i.kind === 'lease');
    expect(leaseA?.endReason).toBe('expired');
    expect(leaseB?.endReason).toBe('deleted');
  });

  it("draws A's belief from acquiring to releasing, long after its lease expired", () => {
    expect(spans(model, 'belief', 'A')).toEqual([[2, 17005, 'A']]);
    expect(spans(model, 'belief', 'B')).toEqual([[11002, 14002, 'B']]);
  });

  it('marks the stretch where A believed it held the lock but Redis had no lease for it', () => {
    expect(spans(model, 'staleBelief', 'A')).toEqual([[10001, 17005, 'A']]);
    // B's belief sits inside its lease apart from the reply's 1 ms trip back.
    expect(spans(model, 'staleBelief', 'B')).toEqual([[14001, 14002, 'B']]);
  });

  it('projects each lease onto its owner lane for comparison', () => {
    expect(spans(model, 'leaseProjection', 'A')).toEqual([[1, 10001, 'A']]);
  });

  it('draws the pause from 2 s to 17 s on A', () => {
    expect(spans(model, 'pause')).toEqual([[2000, 17000, null]]);
  });

  it('pairs every send with its delivery and each write request with its write', () => {
    const net = model.messages.filter((m) => m.channel === 'net');
    expect(net).toHaveLength(8);
    expect(net.every((m) => m.fate === 'delivered' && m.endMs > m.startMs)).toBe(true);
    expect(net[0]).toMatchObject({ from: 'A', to: 'r1', startMs: 0, endMs: 1, label: 'SET lock tok-A-7f3a NX PX 10000' });
    const requests = model.messages.filter((m) => m.channel === 'request');
    expect(requests.map((m) => [m.from, m.to, m.endId])).toEqual([
      ['B', 'espresso', pausedBaristaUnfenced.ids.bWrite],
      ['A', 'espresso', pausedBaristaUnfenced.ids.aWrite],
    ]);
  });

  it('ends the run at run.end', () => {
    expect(model.endMs).toBe(17005);
  });

  it('highlights the single-writer break: both beliefs overlapping, and a marker at 17.002 s', () => {
    expect(model.violations).toHaveLength(1);
    const v = model.violations[0]!;
    expect(v).toMatchObject({ invariant: 'single-writer', atMs: 17002, markerLane: 'espresso' });
    expect(v.regions).toEqual([
      { lane: 'espresso', startMs: 13001, endMs: 17002 },
      { lane: 'B', startMs: 11002, endMs: 14002 },
      { lane: 'A', startMs: 11002, endMs: 14002 },
    ]);
  });

  it('reports lane states at a time, including the pause', () => {
    const at12s = laneStateAt(model, 12000);
    expect(at12s.get('A')).toBe('holding · paused');
    expect(at12s.get('B')).toBe('holding');
    expect(at12s.get('r1')).toBe('lock → Barista B');
    expect(laneStateAt(model, 10500).get('r1')).toBe('no lock held');
    expect(laneStateAt(model, 17005).get('A')).toBe('done');
  });

  it('respects the event cursor within one millisecond', () => {
    // At t=0 A's first state is idle; acquiring is logged later in the same millisecond.
    const idleId = pausedBaristaUnfenced.events.find((e) => e.kind === 'actor.state' && e.actor === 'A')!.id;
    expect(laneStateAt(model, 0, idleId).get('A')).toBe('idle');
    expect(laneStateAt(model, 0).get('A')).toBe('acquiring');
  });
});

describe('buildTimelineModel on the fenced variant', () => {
  const model = buildTimelineModel(pausedBaristaFenced.events, pausedBaristaFenced.verdicts);

  it("keeps A's stale write as a rejected write carrying token 1", () => {
    expect(model.writes.map((w) => [w.owner, w.token, w.accepted, w.reason])).toEqual([
      ['B', 2, true, null],
      ['A', 1, false, 'stale token 1 < 2'],
    ]);
    expect(model.violations).toEqual([]);
  });
});

describe('buildTimelineModel edge cases', () => {
  it('keeps a belief that is never released open until the run ends', () => {
    const model = buildTimelineModel(
      trace([0, 'lock.acquired', 'A', { key: 'k', value: 'v', token: null, ttlMs: 100 }], [500, 'actor.state', 'A', { state: 'holding' }]),
      [],
    );
    const [belief] = model.intervals.filter((i) => i.kind === 'belief');
    expect(belief).toMatchObject({ startMs: 0, endMs: 500, endId: null });
    // With no lease anywhere, the whole belief is unbacked.
    expect(spans(model, 'staleBelief', 'A')).toEqual([[0, 500, 'A']]);
  });

  it('keeps a lease that never ends open until the run ends', () => {
    const model = buildTimelineModel(trace([10, 'lease.granted', 'r1', { key: 'k', owner: 'A', value: 'v', expiresAt: 110 }], [900, 'run.end', 'world', { reason: 'time-cap' }]), []);
    expect(model.intervals.find((i) => i.kind === 'lease')).toMatchObject({ startMs: 10, endMs: 900, endId: null, owner: 'A' });
    expect(model.lanes.map((l) => l.id)).toEqual(['r1']);
  });

  it('draws a message that is never delivered as in flight until the run ends', () => {
    const model = buildTimelineModel(trace([5, 'net.send', 'A', { msg: 9, to: 'r1', label: 'GET k' }], [700, 'run.end', 'world', { reason: 'idle' }]), []);
    expect(model.messages).toEqual([expect.objectContaining({ key: 's0', fate: 'inFlight', from: 'A', to: 'r1', startMs: 5, endMs: 700, endId: null })]);
    // The receiver gets a lane even though it never recorded anything.
    expect(model.lanes.map((l) => l.id)).toEqual(['A', 'r1']);
  });

  it('ends a dropped message at the drop, and marks a second delivery as a duplicate', () => {
    const model = buildTimelineModel(
      trace(
        [0, 'net.send', 'A', { msg: 1, to: 'r1', label: 'x' }],
        [3, 'net.drop', 'A', { msg: 1, to: 'r1', label: 'x', reason: 'partition' }],
        [4, 'net.send', 'A', { msg: 2, to: 'r1', label: 'y' }],
        [6, 'net.deliver', 'r1', { msg: 2, from: 'A', label: 'y' }],
        [8, 'net.deliver', 'r1', { msg: 2, from: 'A', label: 'y' }],
      ),
      [],
    );
    expect(model.messages.map((m) => [m.label, m.fate, m.endMs, m.dropReason])).toEqual([
      ['x', 'dropped', 3, 'partition'],
      ['y', 'delivered', 6, null],
      ['y', 'duplicate', 8, null],
    ]);
  });

  it('closes pauses and beliefs at a crash, and the crash at the restart', () => {
    const model = buildTimelineModel(
      trace(
        [0, 'lock.acquired', 'A', { key: 'k', value: 'v', token: null, ttlMs: 100 }],
        [10, 'process.pause', 'A', { forMs: null }],
        [20, 'process.crash', 'A', {}],
        [50, 'process.restart', 'A', {}],
      ),
      [],
    );
    expect(spans(model, 'belief')).toEqual([[0, 20, 'A']]);
    expect(spans(model, 'pause')).toEqual([[10, 20, null]]);
    expect(spans(model, 'crash')).toEqual([[20, 50, null]]);
    expect(laneStateAt(model, 30).get('A')).toBe('crashed');
  });

  it('falls back to first-seen actors when there is no run.start', () => {
    const model = buildTimelineModel(trace([0, 'actor.state', 'C', { state: 'idle' }], [1, 'actor.state', 'D', { state: 'idle' }]), []);
    expect(model.lanes.map((l) => [l.id, l.role])).toEqual([
      ['C', 'unknown'],
      ['D', 'unknown'],
    ]);
  });
});

describe('network partitions and the topology on the timeline', () => {
  const actors = [
    { id: 'A', label: 'A', role: 'client' as const },
    { id: 'r1', label: 'Redis 1', role: 'redis' as const },
    { id: 'r2', label: 'Redis 2', role: 'redis' as const },
  ];
  const ev = (id: number, at: number, kind: string, actor: string, data: object) => ({ id, at, kind, actor, data }) as unknown as TraceEvent;
  const events = [
    ev(0, 0, 'run.start', 'world', { scenario: 's', seed: 1, actors }),
    ev(1, 0, 'redis.role', 'r2', { role: 'replica', of: 'r1', reason: 'configured' }),
    ev(2, 100, 'net.partition', 'network', { groups: [['A'], ['r1', 'r2']], oneWay: false }),
    ev(3, 150, 'request.timeout', 'A', { msg: 4, to: 'r1', label: 'SET', }),
    ev(4, 300, 'net.heal', 'network', {}),
    ev(5, 400, 'failover.promote', 'r2', { group: 'g', from: 'r1', to: 'r2', epoch: 1 }),
    ev(6, 400, 'redis.role', 'r2', { role: 'primary', of: null, reason: 'failover' }),
    ev(7, 500, 'redis.replicate', 'r2', { from: 'r1', offset: 42, argv: [] }),
    ev(8, 600, 'run.end', 'world', { reason: 'idle' }),
  ];

  it('cuts every lane of a partition from its start to the heal, saying from whom', () => {
    const model = buildTimelineModel(events, []);
    const cuts = model.intervals.filter((i) => i.kind === 'partition');
    expect(cuts.map((i) => [i.lane, i.startMs, i.endMs, i.detail])).toEqual([
      ['A', 100, 300, 'cut off from r1, r2'],
      ['r1', 100, 300, 'cut off from A'],
      ['r2', 100, 300, 'cut off from A'],
    ]);
    expect(laneStateAt(model, 200).get('A')).toContain('cut off');
    expect(laneStateAt(model, 350).get('A')).not.toContain('cut off');
  });

  it('marks timeouts, role changes, failovers and replication, and labels a Redis lane with its role', () => {
    const model = buildTimelineModel(events, []);
    expect(model.points.map((p) => [p.kind, p.lane, p.label])).toEqual([
      ['role', 'r2', 'replica of Redis 1'],
      ['timeout', 'A', 'timed out'],
      ['failover', 'r2', 'failover: Redis 2 promoted'],
      ['role', 'r2', 'primary'],
      ['replicate', 'r2', 'applied up to offset 42'],
    ]);
    expect(laneStateAt(model, 10).get('r2')).toBe('replica of Redis 1 · no lock held');
    expect(laneStateAt(model, 450).get('r2')).toBe('primary · no lock held');
  });
});

describe('naming the lock server', () => {
  it('says Redis on a Redis run, and the lock service by name on a run without Redis', () => {
    expect(buildTimelineModel(pausedBaristaUnfenced.events, []).lockServer).toBe('Redis');
    const etcdRun = trace(
      [0, 'run.start', 'world', { scenario: 's', seed: 1, actors: [{ id: 'A', label: 'Barista A', role: 'client' }, { id: 'etcd', label: 'etcd', role: 'service' }] }],
      [1, 'lease.granted', 'etcd', { key: 'lock', owner: 'A', value: 'v', expiresAt: 100 }],
      [1, 'lock.acquired', 'A', { key: 'lock', value: 'v', token: 1, ttlMs: 100 }],
      [100, 'lease.ended', 'etcd', { key: 'lock', owner: 'A', reason: 'expired' }],
      [200, 'run.end', 'world', { reason: 'idle' }],
    );
    const model = buildTimelineModel(etcdRun, []);
    expect(model.lockServer).toBe('etcd');
    const stale = model.intervals.find((i) => i.kind === 'staleBelief')!;
    expect(describeInterval(stale, (id) => model.laneById.get(id)?.label ?? id, 200, model.lockServer)).toBe(
      'Barista A believes it holds “lock” but etcd has no lease for it: 100 ms to 200 ms',
    );
  });
});
