import { describe, expect, it } from 'vitest';
import type { Steps } from '../sim/steps';
import { nextTask, runInSlices, SLICE_MS } from './slicedWork';

/** `count` steps of about `ms` of busy work each; `done` counts the steps that ran. */
function* busySteps(count: number, ms: number, done: { steps: number }): Steps<string> {
  for (let i = 0; i < count; i++) {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy, as reading events is
    }
    done.steps++;
    yield;
  }
  return 'built';
}

describe('runInSlices', () => {
  it('answers what the steps built, handing the thread back between slices of about SLICE_MS', async () => {
    const done = { steps: 0 };
    const slices: number[] = [];
    let sliceStart = performance.now();
    const value = await runInSlices(
      busySteps(40, 2, done),
      () => false,
      async () => {
        slices.push(performance.now() - sliceStart);
        await nextTask();
        sliceStart = performance.now();
      },
    );
    expect(value).toBe('built');
    expect(done.steps).toBe(40);
    // 80 ms of work in slices of at least SLICE_MS: several turns for the page, but not one per step.
    expect(slices.length).toBeGreaterThanOrEqual(2);
    expect(slices.length).toBeLessThan(40);
    for (const ms of slices) expect(ms).toBeGreaterThanOrEqual(SLICE_MS);
  });

  it('stops between slices once the work is no longer wanted, and runs no further step', async () => {
    const done = { steps: 0 };
    let wanted = true;
    const value = await runInSlices(
      busySteps(40, 2, done),
      () => !wanted,
      async () => {
        wanted = false;
        await nextTask();
      },
    );
    expect(value).toBeNull();
    const ranBeforeStop = done.steps;
    expect(ranBeforeStop).toBeLessThan(40);
    await nextTask();
    expect(done.steps).toBe(ranBeforeStop);
  });

  it('takes a new task between slices, so a message or input waiting meanwhile is answered first', async () => {
    const order: string[] = [];
    const work = runInSlices(busySteps(20, 2, { steps: 0 }), () => false).then(() => order.push('work done'));
    setTimeout(() => order.push('timer'), 0);
    await work;
    expect(order).toEqual(['timer', 'work done']);
  });
});
