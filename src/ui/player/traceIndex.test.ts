import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../sim/traceEvents';
import { countUpTo, indicesOfKind } from './traceIndex';

const ev = (id: number, kind: string): TraceEvent =>
  ({ id, at: id * 10, kind, actor: 'A', data: {} }) as unknown as TraceEvent;
const events = [
  ev(0, 'run.start'),
  ev(1, 'resource.write'),
  ev(2, 'net.send'),
  ev(3, 'resource.write'),
  ev(4, 'run.end'),
];

describe('trace index', () => {
  it('lists the events of one kind in order and counts those the cursor has passed', () => {
    const writes = indicesOfKind(events, 'resource.write');
    expect(writes).toEqual([1, 3]);
    expect([0, 1, 2, 3, 4].map((cursor) => countUpTo(writes, cursor))).toEqual([0, 1, 1, 2, 2]);
  });

  it('keeps one answer per trace, and a new trace (a re-run) gets its own', () => {
    expect(indicesOfKind(events, 'net.send')).toBe(indicesOfKind(events, 'net.send'));
    const rerun = [ev(0, 'run.start'), ev(1, 'net.send'), ev(2, 'net.send')];
    expect(indicesOfKind(rerun, 'net.send')).toEqual([1, 2]);
  });
});
