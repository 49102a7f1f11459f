import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from './eventQueue';

describe('EventQueue', () => {
  it('pops by time, then by insertion order for equal times', () => {
    const q = new EventQueue<string>();
    q.push(20, 'late');
    q.push(10, 'first at 10');
    q.push(10, 'second at 10');
    q.push(0, 'start');
    const order = [];
    for (let e = q.pop(); e; e = q.pop()) order.push(e.item);
    expect(order).toEqual(['start', 'first at 10', 'second at 10', 'late']);
  });

  it('matches a stable sort for any schedule', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }), (times) => {
        const q = new EventQueue<number>();
        times.forEach((t, i) => q.push(t, i));
        const popped: number[] = [];
        for (let e = q.pop(); e; e = q.pop()) popped.push(e.item);
        const expected = times.map((t, i) => ({ t, i })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.i);
        expect(popped).toEqual(expected);
      }),
    );
  });
});
