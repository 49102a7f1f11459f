import { describe, expect, it } from 'vitest';
import { runYaml } from '../../testing/testKit';
import { processStatusesAt, statusOf } from './processStatus';

const yaml = `
id: status
title: t
clients:
  - { id: A, recipe: lease-with-token, ttl: 10s, work: 6s }
  - { id: B, recipe: lease-with-token, ttl: 10s, startAt: 1s }
resource: { id: espresso }
script:
  - { at: 2s, do: pause, target: A, for: 3s }
  - { at: 3s, do: crash, target: B }
  - { at: 4s, do: restart, target: B }
`;

describe('process status', () => {
  it('reads from the trace what the live process says at the same moment', () => {
    const r = runYaml(yaml);
    const at = (ms: number) =>
      processStatusesAt(
        r.events,
        r.events.findLastIndex((e) => e.at <= ms),
      );
    expect(at(1000).size).toBe(0);
    expect(Object.fromEntries(at(2500))).toEqual({ A: 'paused' });
    expect(Object.fromEntries(at(3500))).toEqual({ A: 'paused', B: 'crashed' });
    expect(Object.fromEntries(at(5500))).toEqual({ A: 'running', B: 'running' });
  });

  it('reads a live process from its flags, a crash winning over a pause', () => {
    expect(statusOf({ paused: false, crashed: false })).toBe('running');
    expect(statusOf({ paused: true, crashed: false })).toBe('paused');
    expect(statusOf({ paused: true, crashed: true })).toBe('crashed');
  });
});
