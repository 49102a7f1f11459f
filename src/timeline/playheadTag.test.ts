import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimelineModel } from './model';
import { renderTimeline } from './renderTimeline';
import { loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';

/** [left, right] and [top, bottom] of an svg rect inside a group translated by `translate(x,0)` (or not at all). */
function span(rect: Element): { x: [number, number]; y: [number, number] } {
  const shift = Number(/translate\(([-\d.]+)/.exec(rect.parentElement?.getAttribute('transform') ?? '')?.[1] ?? 0);
  const left = shift + Number(rect.getAttribute('x'));
  const top = Number(rect.getAttribute('y'));
  return { x: [left, left + Number(rect.getAttribute('width'))], y: [top, top + Number(rect.getAttribute('height'))] };
}

describe('the playhead’s time tag', () => {
  let paused: Run;
  beforeAll(async () => {
    await loadScripts();
    paused = run(referenceScenario('paused-barista'));
  });

  for (const [width, cursorAt] of [
    [900, 'start'],
    [900, 'end'],
    [390, 'start'],
  ] as const) {
    it(`waits in the place of the scroll cue's tab on its side, above the tick labels when zoomed away from the playhead (${width} px, playhead at the ${cursorAt})`, () => {
      const model = buildTimelineModel(paused.events, paused.verdicts);
      const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
      Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
      const cursorMs = cursorAt === 'start' ? 0 : model.endMs;
      const handle = renderTimeline(svg, model, { width, cursorMs, reducedMotion: true, followCursor: false });
      // Zoomed into the middle: the playhead is out of view on its side.
      handle.zoomBy(4);
      handle.redrawNow();
      const root = svg as unknown as Element;
      const side = cursorAt === 'start' ? 'left' : 'right';
      const cue = root.querySelector(`.tl-scroll-cue-${side}`)!;
      expect(cue.getAttribute('display')).not.toBe('none');
      const tag = span(root.querySelector('g.tl-playhead-tag rect')!);
      const tab = span(cue.querySelector('rect.tl-scroll-tab')!);
      expect(root.querySelector('g.tl-playhead-tag text')!.textContent).toContain(side === 'left' ? '←' : '→');
      // It takes the place of the cue's tab on its side (hidden), in the tabs' row above the tick
      // labels, and hides none of them; the other side's tab keeps clear of it.
      expect(cue.querySelector('rect.tl-scroll-tab')!.getAttribute('visibility')).toBe('hidden');
      const other = root.querySelector(`.tl-scroll-cue-${side === 'left' ? 'right' : 'left'}`)!;
      if (other.getAttribute('display') !== 'none') {
        const otherTab = span(other.querySelector('rect.tl-scroll-tab')!);
        expect(tag.x[1] <= otherTab.x[0] || tag.x[0] >= otherTab.x[1]).toBe(true);
      }
      const shiftY = Number(
        /translate\([-\d.]+,\s*([-\d.]+)/.exec(root.querySelector('g.tl-playhead-tag')!.getAttribute('transform')!)![1],
      );
      expect(tag.y.map((y) => y + shiftY)).toEqual(tab.y);
      expect(
        [...root.querySelectorAll('g.tick text')].filter((t) => t.getAttribute('visibility') === 'hidden'),
      ).toHaveLength(0);
    });
  }
});
