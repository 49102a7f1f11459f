import { describe, expect, it } from 'vitest';
import { describeFault } from './describeFault';
import { simTime } from '../../sim/time';

describe('describeFault', () => {
  it('says when each fault strikes, what it does, and when it is undone', () => {
    expect(
      describeFault({ kind: 'pause', actions: [{ at: simTime(2000), do: 'pause', target: 'A', forMs: 3000 }] }),
    ).toBe('At 2 s, pause A for 3 s.');
    expect(
      describeFault({
        kind: 'crash',
        actions: [
          { at: simTime(1200), do: 'crash', target: 'r1' },
          { at: simTime(1500), do: 'restart', target: 'r1' },
        ],
      }),
    ).toBe('At 1.2 s, crash r1; at 1.5 s, restart r1.');
    expect(
      describeFault({
        kind: 'restart',
        actions: [
          { at: simTime(1000), do: 'crash', target: 'r1' },
          { at: simTime(1100), do: 'restart', target: 'r1' },
        ],
      }),
    ).toBe('At 1 s, restart r1: it loses everything it held in memory.');
    expect(
      describeFault({
        kind: 'message-loss',
        actions: [
          { at: simTime(0), do: 'network', from: 'A', to: 'r1', loss: 1 },
          { at: simTime(4000), do: 'network', from: 'A', to: 'r1', loss: 0 },
        ],
      }),
    ).toBe('From 0 ms to 4 s, every message from A to r1 is lost.');
    expect(
      describeFault({
        kind: 'partition',
        actions: [
          { at: simTime(1000), do: 'partition', groups: [['A'], ['B', 'r1']] },
          { at: simTime(3000), do: 'heal' },
        ],
      }),
    ).toBe('At 1 s, partition the network: {A} | {B, r1}; at 3 s, heal the network.');
  });
});
