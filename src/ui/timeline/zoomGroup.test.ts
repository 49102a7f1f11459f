import { describe, expect, it } from 'vitest';
import type { TimeWindow } from '../../timeline/renderTimeline';
import { zoomGroup } from './zoomGroup';

describe('zoomGroup', () => {
  it('shows one member’s new window on the others, ignores the echo, and hands a late joiner the window', () => {
    const group = zoomGroup();
    const shown: Record<string, TimeWindow[]> = { a: [], b: [], c: [] };
    // Each member reports what it is shown as a move of its own, like a real timeline does.
    const member = (name: string) => {
      const show = (w: TimeWindow) => {
        shown[name]!.push(w);
        group.moved(show, w);
      };
      return show;
    };
    const a = member('a');
    const b = member('b');
    group.join(a);
    const leaveB = group.join(b);
    group.moved(a, { fromMs: 1000, toMs: 2000 });
    expect(shown.a).toEqual([]);
    expect(shown.b).toEqual([{ fromMs: 1000, toMs: 2000 }]);
    group.join(member('c'));
    expect(shown.c).toEqual([{ fromMs: 1000, toMs: 2000 }]);
    leaveB();
    group.moved(a, { fromMs: 0, toMs: 500 });
    expect(shown.b).toHaveLength(1);
    expect(shown.c).toHaveLength(2);
  });
});
