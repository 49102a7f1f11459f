import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { nameLines } from './layers/lanes';
import { buildTimelineModel } from './model';
import { renderTimeline } from './renderTimeline';
import { loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';
import { timelineSvg } from './timelineSvg';

/** A phone: the timeline is handed the width of a 390 px screen. */
const PHONE_PX = 390;

describe('the timeline on a phone', () => {
  let paused: Run;
  beforeAll(async () => {
    await loadScripts();
    paused = run(referenceScenario('paused-barista'));
  });

  const draw = () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
    // linkedom has no animation frames: the test draws each frame itself with redrawNow().
    Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
    const handle = renderTimeline(svg, model, {
      width: PHONE_PX,
      cursorMs: model.endMs,
      reducedMotion: true,
      followCursor: false,
    });
    return { svg: svg as unknown as Element, handle, model };
  };
  const cueShown = (svg: Element, side: string) =>
    svg.querySelector(`.tl-scroll-cue-${side}`)!.getAttribute('display') !== 'none';

  it('fits the whole run by default: both writes and the broken verdict are in view, no scroll cue', () => {
    const { svg } = draw();
    expect(svg.getAttribute('width')).toBe(String(PHONE_PX));
    const inView = [...svg.querySelectorAll('g.tl-glyph')].filter((g) => g.getAttribute('display') !== 'none');
    expect(inView.filter((g) => g.classList.contains('tl-write'))).toHaveLength(2);
    expect(inView.some((g) => g.classList.contains('tl-verdict'))).toBe(true);
    expect(cueShown(svg, 'left')).toBe(false);
    expect(cueShown(svg, 'right')).toBe(false);
  });

  it('says where the run goes on once zoomed in: "later ›" at first, both ways in the middle', () => {
    const { svg, handle } = draw();
    handle.zoomBy(4);
    handle.panByPx(10_000);
    handle.redrawNow();
    expect([cueShown(svg, 'left'), cueShown(svg, 'right')]).toEqual([false, true]);
    expect(svg.querySelector('.tl-scroll-cue-right text')!.textContent).toBe('later ›');
    handle.panByPx(-150);
    handle.redrawNow();
    expect([cueShown(svg, 'left'), cueShown(svg, 'right')]).toEqual([true, true]);
    handle.fitToRun();
    handle.redrawNow();
    expect([cueShown(svg, 'left'), cueShown(svg, 'right')]).toEqual([false, false]);
  });

  it('keeps the verdict marker off the write it flags at the right edge', () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document } = parseHTML('<!doctype html><html><body></body></html>');
    const svg = timelineSvg(document as unknown as Document, model, {
      width: PHONE_PX,
      cursorMs: model.endMs,
    }) as unknown as Element;
    const x = (g: Element) => Number(/translate\(([-\d.]+),/.exec(g.getAttribute('transform')!)![1]);
    const lastWrite = [...svg.querySelectorAll('g.tl-write')].at(-1)!;
    const verdict = [...svg.querySelectorAll('g.tl-verdict')].find((g) => Math.abs(x(g) - x(lastWrite)) < 40)!;
    expect(Math.abs(x(verdict) - x(lastWrite))).toBeGreaterThanOrEqual(22);
  });

  it('gives a long state the role’s line instead of cutting it, and gives the line back when the state is short', () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document } = parseHTML('<!doctype html><html><body></body></html>');
    // At 11 s A is paused at work and Redis has given the lock to B: both too long for one line.
    const svg = timelineSvg(document as unknown as Document, model, {
      width: PHONE_PX,
      cursorMs: 11_003,
    }) as unknown as Element;
    const label = (name: string) =>
      [...svg.querySelectorAll('g.tl-lane-label')].find(
        (g) => g.querySelector('.tl-label-name')!.textContent === name,
      )!;
    const lines = (name: string) => [
      label(name).querySelector('.tl-label-role')!.textContent,
      label(name).querySelector('.tl-label-state')!.textContent,
    ];
    expect(lines('Barista A')).toEqual(['▸ working ·', 'paused']);
    expect(lines('Redis r1')).toEqual(['▸ lock →', 'Barista B']);
    const early = timelineSvg(document as unknown as Document, model, {
      width: PHONE_PX,
      cursorMs: 1,
    }) as unknown as Element;
    const roleOf = (svgEl: Element, name: string) =>
      [...svgEl.querySelectorAll('g.tl-lane-label')]
        .find((g) => g.querySelector('.tl-label-name')!.textContent === name)!
        .querySelector('.tl-label-role')!.textContent;
    expect(roleOf(early, 'Barista A')).toBe('client');
  });

  it('breaks a long lane name over two lines instead of cutting it', () => {
    expect(nameLines('Espresso machine', 13)).toEqual(['Espresso', 'machine']);
    expect(nameLines('Barista A', 13)).toEqual(['Barista A']);
    expect(nameLines('Supercalifragilistic', 13)).toEqual(['Supercalifra…']);
  });
});
