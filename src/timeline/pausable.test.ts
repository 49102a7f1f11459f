import { describe, expect, it } from 'vitest';
import { EVENTS_PER_STEP, type Steps } from '../sim/steps';
import type { TraceEvent } from '../sim/traceEvents';
import { syntheticTrace } from './bench/syntheticTrace';
import { groupClients, groupSteps } from './laneGroups';
import { buildTimelineModel, timelineModelSteps } from './model';

/** The trace behind a proxy that counts how many events were read since the count was last taken. */
function counted(events: readonly TraceEvent[]) {
  let reads = 0;
  const proxy = new Proxy(events as TraceEvent[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { proxy, take: () => [reads, (reads = 0)][0]! };
}

/** Runs `steps` to the end, noting how many events were read between two pauses. */
function readsPerStep<T>(steps: Steps<T>, take: () => number): { value: T; reads: number[] } {
  const reads: number[] = [];
  for (;;) {
    const next = steps.next();
    reads.push(take());
    if (next.done) return { value: next.value, reads };
  }
}

describe('reading a long run for the timeline, a step at a time', () => {
  // Six passes over the events (ids, lanes, intervals, beliefs, marks, messages), each pausing.
  const { events, verdicts } = syntheticTrace({ events: 60_000, clients: 20 });

  it('reads no more than one step of events between two pauses, so the page can answer between them', () => {
    const { proxy, take } = counted(events);
    const { reads } = readsPerStep(timelineModelSteps(proxy, verdicts), take);
    expect(Math.max(...reads)).toBeLessThanOrEqual(2 * EVENTS_PER_STEP);
    expect(reads.length).toBeGreaterThanOrEqual(6 * Math.floor(events.length / EVENTS_PER_STEP));
  });

  it('builds, step by step, the same model as in one go, folded or not', () => {
    const { value } = readsPerStep(timelineModelSteps(events, verdicts), () => 0);
    expect(value).toEqual(buildTimelineModel(events, verdicts));
    const folded = readsPerStep(groupSteps(value), () => 0);
    expect(folded.reads.length).toBeGreaterThan(Math.floor(events.length / EVENTS_PER_STEP));
    expect(folded.value).toEqual(groupClients(value));
    expect(folded.value.lanes.some((l) => l.id === 'group clients')).toBe(true);
  });
});
