import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimelineModel } from './model';
import { renderTimeline } from './renderTimeline';
import { loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';

describe('"Fit to run" then "Zoom in", pressed quickly', () => {
  let paused: Run;
  beforeAll(async () => {
    await loadScripts();
    paused = run(referenceScenario('paused-barista'));
  });

  it('zooms in from the fitted view, not from wherever the fit had glided to', () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
    Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
    // Motion on: the fit glides back to the whole run over 250 ms.
    const handle = renderTimeline(svg, model, {
      width: 900,
      cursorMs: 9000,
      reducedMotion: false,
      followCursor: false,
    });
    handle.zoomBy(4);
    expect(handle.transform().k).toBeCloseTo(4);
    handle.fitToRun();
    // Pressed before the glide has moved a frame (a slow phone): 1.5 × the whole run, not 1.5 × 4.
    handle.zoomBy(1.5);
    expect(handle.transform().k).toBeCloseTo(1.5);
    handle.zoomBy(1.5);
    expect(handle.transform().k).toBeCloseTo(2.25);
    handle.destroy();
  });
});
