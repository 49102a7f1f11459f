import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../sim/traceEvents';
import { packRun, unpackRun } from './packedRun';
import type { ComputedRun } from './runModel';

const event = (id: number, at: number, kind: string, actor: string, data: Record<string, unknown>) =>
  ({ id, at, kind, actor, data }) as unknown as TraceEvent;

const run: ComputedRun = {
  events: [
    event(0, 0, 'lock.request', 'A', { key: 'lock' }),
    event(1, 0.1, 'net.send', 'A', { msg: 1, to: 'r1', label: 'SET lock a NX PX 2000' }),
    event(2, 0.30000000000000004, 'net.deliver', 'r1', { msg: 1, from: 'A', label: 'SET lock a NX PX 2000' }),
    event(3, 1e-7, 'lock.request', 'B', { key: 'lock' }),
    event(4, 2000, 'lease.ended', 'r1', { key: 'lock', owner: 'A', reason: 'expired', extra: undefined }),
  ],
  verdicts: [],
  traceHash: 'abc123',
  ended: 'idle',
};

describe('a packed run', () => {
  it('comes back through JSON equal to the run, field for field, times exact', () => {
    const packed = packRun(run);
    // 1e-7 is not 0.30000000000000004 plus their difference: that event's time is kept whole.
    expect(packed.events.filter((entry) => Array.isArray(entry))).toEqual([[1e-7]]);
    const back = unpackRun(JSON.parse(JSON.stringify(packed)) as typeof packed);
    // What the run's own JSON gives: the undefined field left out, every time exact.
    expect(back).toStrictEqual(JSON.parse(JSON.stringify(run)));
    expect(JSON.stringify(back)).toBe(JSON.stringify(run));
  });

  it('names each kind, actor and set of fields once', () => {
    const packed = packRun(run);
    expect(packed.shapes).toEqual([
      ['lock.request', 'A', 'key'],
      ['net.send', 'A', 'msg', 'to', 'label'],
      ['net.deliver', 'r1', 'msg', 'from', 'label'],
      ['lock.request', 'B', 'key'],
      ['lease.ended', 'r1', 'key', 'owner', 'reason'],
    ]);
  });

  it('refuses a trace whose ids are not their indexes, and says which event', () => {
    expect(() => packRun({ ...run, events: [run.events[1]!] })).toThrow('event 0 has id 1');
  });

  it('that names a shape the run does not have fails to unpack, saying where', () => {
    const packed = packRun(run);
    packed.events[1] = 9;
    expect(() => unpackRun(packed)).toThrow('event 0 names shape 9');
  });
});
