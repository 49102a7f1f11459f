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
        const expected = times
          .map((t, i) => ({ t, i }))
          .sort((a, b) => a.t - b.t || a.i - b.i)
          .map((x) => x.i);
        expect(popped).toEqual(expected);
      }),
    );
  });

  it('keeps the order of what it keeps when it drops entries, whatever it drops', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 200 }),
        fc.integer({ min: 0, max: 50 }),
        (entries, popFirst) => {
          const q = new EventQueue<number>();
          entries.forEach(([t], i) => q.push(t, i));
          const popped: number[] = [];
          for (let n = 0; n < popFirst && q.size > 0; n++) popped.push(q.pop()!.item);
          q.removeWhere((i) => entries[i]![1]);
          for (let e = q.pop(); e; e = q.pop()) popped.push(e.item);
          const order = entries
            .map(([t], i) => ({ t, i }))
            .sort((a, b) => a.t - b.t || a.i - b.i)
            .map((x) => x.i);
          const firstPopped = order.slice(0, Math.min(popFirst, entries.length));
          const rest = order.slice(firstPopped.length).filter((i) => !entries[i]![1]);
          expect(popped).toEqual([...firstPopped, ...rest]);
        },
      ),
    );
  });
});
