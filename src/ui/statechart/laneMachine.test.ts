import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../sim/traceEvents';
import { litStatesAt } from './laneMachine';

const state = (id: number, actor: string, name: string): TraceEvent =>
  ({ id, at: id * 10, actor, kind: 'actor.state', data: { state: name } }) as TraceEvent;

describe('the state a statechart lights', () => {
  const events = [
    state(0, 'A', 'acquiring'),
    state(1, 'B', 'acquiring'),
    state(2, 'A', 'working'),
    state(3, 'A', 'retrying'),
    state(4, 'A', 'crashed'),
    state(5, 'A', 'idle'),
  ];

  it('is the actor’s last state at the playhead, not another actor’s and not a later one', () => {
    expect([...litStatesAt(events, 1, 'A').active]).toEqual(['acquiring']);
    expect([...litStatesAt(events, 2, 'A').active]).toEqual(['working']);
    expect(litStatesAt(events, 2, 'A').note).toBeNull();
  });

  it('keeps the state a retry pauses in lit, and says that retrying is not a state', () => {
    const lit = litStatesAt(events, 3, 'A');
    expect([...lit.active]).toEqual(['working']);
    expect(lit.laneState).toBe('retrying');
    expect(lit.note).toMatch(/inside working/);
  });

  it('lights nothing while crashed, and the new machine’s idle after a restart', () => {
    expect(litStatesAt(events, 4, 'A').active.size).toBe(0);
    expect(litStatesAt(events, 4, 'A').note).toMatch(/machine is gone/);
    expect([...litStatesAt(events, 5, 'A').active]).toEqual(['idle']);
  });
});
