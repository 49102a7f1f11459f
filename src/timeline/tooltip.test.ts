import { select } from 'd3-selection';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../sim/traceEvents';
import { eventDetailRows } from './describeEvent';
import { loadScripts, referenceScenario, run } from './testing/lessonRuns';
import { overlaps, type Box } from './layers/labelLayout';
import { showTooltip, tooltipPosition } from './tooltip';

const bounds = { width: 900, height: 300 };

describe('tooltipPosition: beside the mark, never on it', () => {
  const size = { w: 220, h: 70 };
  const at = (mark: Box, pointerX: number | null = null) => {
    const { x, y } = tooltipPosition(mark, size.w, size.h, bounds, pointerX);
    return { x0: x, y0: y, x1: x + size.w, y1: y + size.h };
  };

  it('puts a small mark’s tooltip to its right, or to its left near the right edge', () => {
    expect(at({ x0: 300, y0: 100, x1: 316, y1: 116 }).x0).toBe(324);
    expect(at({ x0: 800, y0: 100, x1: 816, y1: 116 }).x1).toBe(792);
  });

  it('puts a bar’s tooltip below it at the pointer, or above it near the bottom', () => {
    const bar = { x0: 200, y0: 40, x1: 700, y1: 64 };
    expect(at(bar, 450)).toMatchObject({ x0: 438, y0: 72 });
    expect(at({ ...bar, y0: 250, y1: 274 }, 450).y1).toBe(242);
  });

  it('never covers the mark, wherever it is', () => {
    for (let x = 0; x < 900; x += 37) {
      for (let y = 0; y < 290; y += 23) {
        for (const w of [12, 30, 200, 600]) {
          const mark = { x0: x, y0: y, x1: Math.min(900, x + w), y1: Math.min(300, y + 16) };
          expect(overlaps(at(mark, x + 5), mark), JSON.stringify(mark)).toBe(false);
        }
      }
    }
  });

  it('draws it there: the tooltip group is moved beside the mark', () => {
    const { document } = parseHTML('<!doctype html><html><body><svg><g></g></svg></body></html>');
    const g = select(document.querySelector('g') as unknown as SVGGElement);
    showTooltip(
      g,
      { eventId: 1, headline: 'Espresso machine accepted Barista B’s write.', rows: [['time', '13.006 s']] },
      { x0: 500, y0: 100, x1: 516, y1: 116 },
      null,
      900,
      300,
    );
    expect(g.attr('transform')).toMatch(/^translate\(524,/);
    expect(g.attr('visibility')).toBe('visible');
  });
});

describe('eventDetailRows: the fields that matter', () => {
  let events: TraceEvent[];
  const labelOf = (id: string) =>
    ({ A: 'Barista A', B: 'Barista B', r1: 'Redis r1', espresso: 'Espresso machine' })[id] ?? id;
  beforeAll(async () => {
    await loadScripts();
    events = run(referenceScenario('paused-barista')).events;
  });

  it('never shows an empty value ("token: null") on any event of a real run', () => {
    for (const e of events) {
      for (const [key, value] of eventDetailRows(e, labelOf))
        expect(value, `${e.kind} ${key}`).not.toMatch(/^(null|undefined|)$/);
    }
  });

  it('shows an unfenced write as its time, value and place in the trace: the sentence says the rest', () => {
    const write = events.find((e) => e.kind === 'resource.write')!;
    expect(eventDetailRows(write, labelOf)).toEqual([
      ['time', '13.006 s'],
      ['value', "B's order"],
      ['trace event', `#${write.id} resource.write`],
    ]);
  });

  it('writes times as times and ids as names', () => {
    const grant = events.find((e) => e.kind === 'lease.granted')!;
    expect(eventDetailRows(grant, labelOf)).toContainEqual(['expires at', '10.004 s']);
    const command = events.find((e) => e.kind === 'redis.command')!;
    expect(eventDetailRows(command, labelOf)).toContainEqual([
      'command',
      expect.stringMatching(/^SET lock A-\w+ NX PX 10000$/),
    ]);
  });
});
