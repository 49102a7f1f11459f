import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent, TraceEventMap, TraceKind } from '../sim/traceEvents';
import { describeInterval } from './layers/intervals';
import { buildTimelineModel, laneStateAt } from './model';
import type { Interval, TimelineModel } from './model';
import { lessonScenarios, loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';

const spans = (model: TimelineModel, kind: Interval['kind'], lane?: string) =>
  model.intervals
    .filter((i) => i.kind === kind && (lane === undefined || i.lane === lane))
    .map((i) => [i.startMs, i.endMs, i.owner]);

/** A tiny trace builder for edge cases. */
function trace(...rows: [number, TraceKind, string, unknown][]): TraceEvent[] {
  return rows.map(
    ([at, kind, actor, data], id) => ({ id, at, kind, actor, data: data as TraceEventMap[TraceKind] }) as TraceEvent,
  );
}

// The simulator's own run of lesson 5's paused barista: A takes the lock, is paused for 15 s at
// 2 s, its lease expires at 10 s, B takes the lock at 11 s, writes and releases; A wakes at 17 s
// still believing it holds the lock and writes too.
describe('buildTimelineModel on the simulated paused barista', () => {
  let unfenced: Run;
  let fenced: Run;
  let model: TimelineModel;
  beforeAll(async () => {
    await loadScripts();
    unfenced = run(referenceScenario('paused-barista'));
    fenced = run(referenceScenario('paused-barista'), { fencing: true });
    model = buildTimelineModel(unfenced.events, unfenced.verdicts);
  });
  const first = <K extends TraceKind>(r: Run, kind: K, actor: string) =>
    r.events.find((e) => e.kind === kind && e.actor === actor) as TraceEvent<K>;
  const last = <K extends TraceKind>(r: Run, kind: K, actor: string) =>
    r.events.findLast((e) => e.kind === kind && e.actor === actor) as TraceEvent<K>;

  it('lays out one lane per actor in run.start order, without the world', () => {
    expect(model.lanes.map((l) => [l.id, l.label, l.role])).toEqual([
      ['A', 'Barista A', 'client'],
      ['B', 'Barista B', 'client'],
      ['r1', 'Redis r1', 'redis'],
      ['espresso', 'Espresso machine', 'resource'],
    ]);
  });

  it('draws leases as Redis held them: A until its TTL ran out, then B until B deleted it', () => {
    expect(spans(model, 'lease', 'r1')).toEqual([
      [first(unfenced, 'lease.granted', 'r1').at, first(unfenced, 'lease.ended', 'r1').at, 'A'],
      [last(unfenced, 'lease.granted', 'r1').at, last(unfenced, 'lease.ended', 'r1').at, 'B'],
    ]);
    expect(model.intervals.filter((i) => i.kind === 'lease').map((i) => i.endReason)).toEqual(['expired', 'deleted']);
    const [leaseA] = spans(model, 'lease', 'r1');
    expect((leaseA![1] as number) - (leaseA![0] as number)).toBeGreaterThanOrEqual(10_000);
  });

  it("draws A's belief from acquiring until it sends its release, long after its lease expired", () => {
    const releaseSent = unfenced.events.findLast(
      (e) => e.kind === 'net.send' && e.actor === 'A' && e.data.to === 'r1',
    )!;
    expect(spans(model, 'belief', 'A')).toEqual([[first(unfenced, 'lock.acquired', 'A').at, releaseSent.at, 'A']]);
    expect(releaseSent.at).toBeGreaterThan(17_000);
    expect(model.intervals.find((i) => i.kind === 'belief' && i.lane === 'A')).toMatchObject({
      endId: releaseSent.id,
      endReason: 'released',
    });
  });

  it('marks the stretch where A believed it held the lock but Redis had no lease for it, and none for B', () => {
    const [, leaseAEnd] = spans(model, 'lease', 'r1')[0]!;
    const [, beliefAEnd] = spans(model, 'belief', 'A')[0]!;
    expect(spans(model, 'staleBelief', 'A')).toEqual([[leaseAEnd, beliefAEnd, 'A']]);
    // B lets go (sends its release) before Redis deletes its key: its belief is backed throughout.
    expect(spans(model, 'staleBelief', 'B')).toEqual([]);
  });

  it('projects each lease onto its owner lane for comparison', () => {
    expect(spans(model, 'leaseProjection', 'A')).toEqual([spans(model, 'lease', 'r1')[0]]);
  });

  it('draws the pause from 2 s to 17 s on A', () => {
    expect(spans(model, 'pause')).toEqual([[2000, 17000, null]]);
  });

  it('pairs every send with its delivery and each write request with its write', () => {
    const net = model.messages.filter((m) => m.channel === 'net');
    expect(net.length).toBe(unfenced.events.filter((e) => e.kind === 'net.send').length);
    expect(net.every((m) => m.fate === 'delivered' && m.endMs > m.startMs)).toBe(true);
    expect(net[0]).toMatchObject({
      from: 'A',
      to: 'r1',
      startMs: 0,
      label: expect.stringMatching(/^SET lock A-\w+ NX PX 10000$/),
    });
    const requests = model.messages.filter((m) => m.channel === 'request');
    const writes = unfenced.events.filter((e) => e.kind === 'resource.write');
    expect(requests.map((m) => [m.from, m.to, m.endId])).toEqual([
      ['B', 'espresso', writes[0]!.id],
      ['A', 'espresso', writes[1]!.id],
    ]);
  });

  it('ends the run at the last event', () => {
    expect(model.endMs).toBe(unfenced.events.at(-1)!.at);
  });

  it("highlights single-writer at A's write and single-holder at B's acquire, each with its marker", () => {
    const aWrite = last(unfenced, 'resource.write', 'espresso');
    const bAcquired = first(unfenced, 'lock.acquired', 'B');
    expect(model.violations.map((v) => [v.invariant, v.atMs, v.markerLane])).toEqual([
      ['single-writer', aWrite.at, 'espresso'],
      ['single-holder', bAcquired.at, 'B'],
    ]);
    // Both beliefs overlap from B's acquire until B lets go.
    const [, bEnd] = spans(model, 'belief', 'B')[0]!;
    expect(model.violations[1]!.regions).toEqual([
      { lane: 'A', startMs: bAcquired.at, endMs: bEnd },
      { lane: 'B', startMs: bAcquired.at, endMs: bEnd },
    ]);
  });

  it('reports lane states at a time, including the pause and who holds the key on Redis', () => {
    const stateAt = (actor: string, ms: number) =>
      unfenced.events.findLast((e) => e.kind === 'actor.state' && e.actor === actor && e.at <= ms) as {
        data: { state: string };
      };
    const at12s = laneStateAt(model, 12000);
    expect(at12s.get('A')).toBe(`${stateAt('A', 12000).data.state} · paused`);
    expect(at12s.get('B')).toBe(stateAt('B', 12000).data.state);
    expect(at12s.get('r1')).toBe('lock → Barista B');
    expect(laneStateAt(model, 10500).get('r1')).toBe('no lock held');
    expect(laneStateAt(model, model.endMs).get('A')).toBe(last(unfenced, 'actor.state', 'A').data.state);
  });

  it('respects the event cursor within one millisecond', () => {
    // At t=0 A enters two states; the cursor decides which one the label shows.
    const [firstState, secondState] = unfenced.events.filter(
      (e) => e.kind === 'actor.state' && e.actor === 'A' && e.at === 0,
    );
    expect(laneStateAt(model, 0, firstState!.id).get('A')).toBe((firstState as { data: { state: string } }).data.state);
    expect(laneStateAt(model, 0, secondState!.id).get('A')).toBe(
      (secondState as { data: { state: string } }).data.state,
    );
  });

  it("fenced, keeps A's stale write as a rejected write carrying the older token, and no single-writer break", () => {
    const fencedModel = buildTimelineModel(fenced.events, fenced.verdicts);
    expect(fencedModel.writes.map((w) => [w.owner, w.token, w.accepted, w.reason])).toEqual([
      ['B', 2, true, null],
      ['A', 1, false, 'stale token 1 < 2'],
    ]);
    expect(fencedModel.violations.map((v) => v.invariant)).not.toContain('single-writer');
  });
});

describe('buildTimelineModel edge cases', () => {
  it('keeps a belief that is never released open until the run ends', () => {
    const model = buildTimelineModel(
      trace(
        [0, 'lock.acquired', 'A', { key: 'k', value: 'v', token: null, ttlMs: 100 }],
        [500, 'actor.state', 'A', { state: 'holding' }],
      ),
      [],
    );
    const [belief] = model.intervals.filter((i) => i.kind === 'belief');
    expect(belief).toMatchObject({ startMs: 0, endMs: 500, endId: null });
    // With no lease anywhere, the whole belief is unbacked.
    expect(spans(model, 'staleBelief', 'A')).toEqual([[0, 500, 'A']]);
  });

  it('keeps a lease that never ends open until the run ends', () => {
    const model = buildTimelineModel(
      trace(
        [10, 'lease.granted', 'r1', { key: 'k', owner: 'A', value: 'v', expiresAtMs: 110 }],
        [900, 'run.end', 'world', { reason: 'time-cap' }],
      ),
      [],
    );
    expect(model.intervals.find((i) => i.kind === 'lease')).toMatchObject({
      startMs: 10,
      endMs: 900,
      endId: null,
      owner: 'A',
    });
    expect(model.lanes.map((l) => l.id)).toEqual(['r1']);
  });

  it('draws a message that is never delivered as in flight until the run ends', () => {
    const model = buildTimelineModel(
      trace([5, 'net.send', 'A', { msg: 9, to: 'r1', label: 'GET k' }], [700, 'run.end', 'world', { reason: 'idle' }]),
      [],
    );
    expect(model.messages).toEqual([
      expect.objectContaining({
        key: 's0',
        fate: 'inFlight',
        from: 'A',
        to: 'r1',
        startMs: 5,
        endMs: 700,
        endId: null,
      }),
    ]);
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

  it('says a crash once when the machine state says it too, and a client that gave up as such', () => {
    const model = buildTimelineModel(
      trace(
        [0, 'actor.state', 'A', { state: 'working' }],
        [20, 'process.crash', 'A', {}],
        [20, 'actor.state', 'A', { state: 'crashed' }],
        [0, 'actor.state', 'B', { state: 'acquiring' }],
        [30, 'actor.state', 'B', { state: 'failed' }],
      ),
      [],
    );
    expect(laneStateAt(model, 25).get('A')).toBe('crashed');
    expect(laneStateAt(model, 40).get('B')).toBe('gave up');
  });

  it('falls back to first-seen actors when there is no run.start', () => {
    const model = buildTimelineModel(
      trace([0, 'actor.state', 'C', { state: 'idle' }], [1, 'actor.state', 'D', { state: 'idle' }]),
      [],
    );
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
  const ev = (id: number, at: number, kind: string, actor: string, data: object) =>
    ({ id, at, kind, actor, data }) as unknown as TraceEvent;
  const events = [
    ev(0, 0, 'run.start', 'world', { scenario: 's', seed: 1, actors }),
    ev(1, 0, 'redis.role', 'r2', { role: 'replica', of: 'r1', reason: 'configured' }),
    ev(2, 100, 'net.partition', 'network', { groups: [['A'], ['r1', 'r2']], oneWay: false }),
    ev(3, 150, 'request.timeout', 'A', { msg: 4, to: 'r1', label: 'SET' }),
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

  it('marks timeouts, role changes, a failover’s stages and replication, and labels a Redis lane with its role', () => {
    const model = buildTimelineModel(events, []);
    expect(model.points.map((p) => [p.kind, p.lane, p.label])).toEqual([
      ['role', 'r2', 'replica of Redis 1'],
      ['timeout', 'A', 'timed out'],
      ['sentinel', 'r2', 'promoted'],
      ['role', 'r2', 'primary'],
      ['replicate', 'r2', 'applied up to offset 42'],
    ]);
    expect(laneStateAt(model, 10).get('r2')).toBe('replica of Redis 1 · no lock held');
    expect(laneStateAt(model, 450).get('r2')).toBe('primary · no lock held');
  });
});

describe('naming the lock server', () => {
  it('says Redis on a Redis run, and the lock service by name on a run without Redis', () => {
    const redisRun = trace([
      0,
      'run.start',
      'world',
      {
        scenario: 's',
        seed: 1,
        actors: [
          { id: 'A', label: 'A', role: 'client' },
          { id: 'r1', label: 'Redis', role: 'redis' },
        ],
      },
    ]);
    expect(buildTimelineModel(redisRun, []).lockServer).toBe('Redis');
    const etcdRun = trace(
      [
        0,
        'run.start',
        'world',
        {
          scenario: 's',
          seed: 1,
          actors: [
            { id: 'A', label: 'Barista A', role: 'client' },
            { id: 'etcd', label: 'etcd', role: 'service' },
          ],
        },
      ],
      [1, 'lease.granted', 'etcd', { key: 'lock', owner: 'A', value: 'v', expiresAtMs: 100 }],
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

// As in the single-lease checker, only a primary grants: the timeline's faint "Redis lease" on a
// client's lane, and the stale stretch of its belief, count a replica's copy only once promoted.
describe('leases as the lock server grants them (only primaries)', () => {
  let lessons: ReturnType<typeof lessonScenarios>;
  beforeAll(async () => {
    await loadScripts();
    lessons = lessonScenarios();
  });
  const modelOf = (spec: string) => {
    const r = run(lessons.find((s) => s.spec === spec)!.scenario);
    return { r, model: buildTimelineModel(r.events, r.verdicts) };
  };

  it("does not project a replica's copy of A's lease onto A's lane", () => {
    const { model } = modelOf('09-replication-lost-lock.md#failover-your-turn');
    expect(model.intervals.filter((i) => i.kind === 'lease' && i.owner === 'A').map((i) => i.lane)).toEqual([
      'primary',
      'replica',
    ]);
    const primaryLease = model.intervals.find((i) => i.kind === 'lease' && i.owner === 'A' && i.lane === 'primary')!;
    expect(spans(model, 'leaseProjection', 'A')).toEqual([[primaryLease.startMs, primaryLease.endMs, 'A']]);
  });

  it("projects a promoted replica's lease from the promotion on", () => {
    const { r, model } = modelOf('10-two-primaries.md#failover-split-brain');
    const promoted = r.events.find(
      (e) => e.kind === 'redis.role' && e.actor === 'replica' && e.data.role === 'primary',
    )!;
    const fromReplica = model.intervals.filter(
      (i) =>
        i.kind === 'leaseProjection' &&
        i.startId ===
          model.intervals.find((l) => l.kind === 'lease' && l.lane === 'replica' && l.owner === 'B')?.startId,
    );
    expect(fromReplica.length).toBeGreaterThan(0);
    expect(fromReplica.every((i) => i.startMs >= promoted.at)).toBe(true);
  });
});
