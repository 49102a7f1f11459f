import { describe, expect, it } from 'vitest';
import { simTime } from '../../sim/time';
import type { TraceEvent } from '../../sim/traceEvents';
import { landing, snapTargets } from './dragSnap';
import type { PlayerMark } from './storyMarks';

const acquired = { atMs: 5003, what: 'B acquired the lock' };

describe('where a dragged mark lands', () => {
  it('lands on the 100 ms grid between events', () => {
    expect(landing(1949, [acquired], 10)).toEqual({ atMs: 1900, on: null });
    expect(landing(1951, [], 10)).toEqual({ atMs: 2000, on: null });
  });

  it("lands on an event's own time, to the millisecond, when it comes within 8 px of it", () => {
    // 10 ms a pixel: 80 ms of reach.
    expect(landing(4930, [acquired], 10)).toEqual({ atMs: 5003, on: acquired });
    expect(landing(4920, [acquired], 10)).toEqual({ atMs: 4900, on: null });
    // Zoomed in to 1 ms a pixel, the same event pulls from 8 ms away only.
    expect(landing(4990, [acquired], 1)).toEqual({ atMs: 5000, on: null });
  });

  it('takes the nearest of two events in reach, and lands a whole span by its end when that is nearer', () => {
    const lost = { atMs: 5060, what: 'A lost the lock' };
    expect(landing(5040, [acquired, lost], 10).on).toBe(lost);
    // A 3 s pause dragged to start at 2.05 s ends at 5.05 s, 3 ms from B's acquisition: it ends exactly there.
    expect(landing(2050, [acquired], 10, 3000)).toEqual({ atMs: 2003, on: acquired });
  });
});

describe('what a dragged mark can land on', () => {
  const ev = (id: number, at: number, kind: string, actor: string, data: object = {}) =>
    ({ id, at: simTime(at), kind, actor, data }) as unknown as TraceEvent;
  const pause: PlayerMark = {
    key: 'script:0',
    source: 'script',
    index: 0,
    name: 'pause A',
    atMs: 2000,
    lengthMs: 15_000,
    resizable: true,
    laneId: 'A',
  };
  const crash: PlayerMark = {
    key: 'learner:0',
    source: 'learner',
    index: 0,
    name: 'crash B',
    atMs: 9000,
    lengthMs: null,
    resizable: false,
    laneId: 'B',
  };
  const events = [
    ev(1, 12, 'lock.acquired', 'A', { key: 'k', token: 1 }),
    ev(2, 2000, 'process.pause', 'A', { forMs: 15_000 }),
    ev(3, 11_004, 'lock.acquired', 'B', { key: 'k', token: 2 }),
    ev(4, 7000, 'redis.command', 'A', {}),
    ev(5, 17_000, 'process.resume', 'A'),
  ];

  it("offers the steps on the mark's own lane and the other marks, not its own start and end nor the busy Redis chatter", () => {
    const targets = snapTargets(events, [pause, crash], pause, (id) => id);
    expect(targets.map((t) => t.atMs)).toEqual([12, 9000]);
    expect(targets[1]!.what).toBe('crash B');
  });
});
