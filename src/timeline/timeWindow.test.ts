import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimelineModel } from './model';
import { renderTimeline, type TimeWindow } from './renderTimeline';
import { loadScripts, referenceScenario, run, type Run } from './testing/lessonRuns';

describe('the time window API', () => {
  let paused: Run;
  beforeAll(async () => {
    await loadScripts();
    paused = run(referenceScenario('paused-barista'));
  });

  const draw = (onTimeWindow?: (w: TimeWindow) => void, reducedMotion = true) => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
    Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
    const handle = renderTimeline(svg, model, {
      width: 900,
      cursorMs: model.endMs,
      reducedMotion,
      followCursor: false,
      ...(onTimeWindow ? { onTimeWindow } : {}),
    });
    return { handle, model, svg };
  };
  const axisTicks = (svg: SVGSVGElement) =>
    [...(svg as unknown as Element).querySelectorAll('.tl-axis text')].map((t) => t.textContent).join(' ');

  it('starts on the whole run and shows exactly the window it is given', () => {
    const { handle, model, svg } = draw();
    const whole = handle.timeWindow()!;
    expect(whole.fromMs).toBeCloseTo(0);
    expect(whole.toMs).toBeGreaterThanOrEqual(model.endMs);
    const before = axisTicks(svg);
    handle.showTimeWindow({ fromMs: 5000, toMs: 9000 });
    handle.redrawNow();
    expect(handle.timeWindow()!.fromMs).toBeCloseTo(5000);
    expect(handle.timeWindow()!.toMs).toBeCloseTo(9000);
    expect(axisTicks(svg)).not.toBe(before);
  });

  it("opens the first run on the window its author chose, and keeps the learner's zoom for the runs after", () => {
    const model = buildTimelineModel(paused.events, paused.verdicts);
    const { document, window } = parseHTML('<!doctype html><html><body></body></html>');
    Object.assign(window, { requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg') as unknown as SVGSVGElement;
    const view = {
      width: 900,
      cursorMs: model.endMs,
      reducedMotion: true,
      followCursor: false,
      opensOn: { fromMs: 1000, toMs: 3000 },
    };
    const handle = renderTimeline(svg, model, view);
    expect(handle.timeWindow()!.fromMs).toBeCloseTo(1000);
    expect(handle.timeWindow()!.toMs).toBeCloseTo(3000);
    // The learner fits the whole run; the run after their next change keeps that.
    handle.showTimeWindow({ fromMs: 0, toMs: model.endMs });
    const changed = buildTimelineModel(paused.events.slice(0, -1), paused.verdicts);
    renderTimeline(svg, changed, view);
    expect(handle.timeWindow()!.fromMs).toBeCloseTo(0);
  });

  it('tells the host about every change of window, its own zooms and pans included', () => {
    const seen: TimeWindow[] = [];
    const { handle } = draw((w) => seen.push(w));
    handle.zoomBy(2);
    expect(seen).toHaveLength(1);
    const span = seen[0]!.toMs - seen[0]!.fromMs;
    handle.panByPx(100);
    expect(seen).toHaveLength(2);
    // A pan keeps the span and moves the window earlier.
    expect(seen[1]!.toMs - seen[1]!.fromMs).toBeCloseTo(span);
    expect(seen[1]!.fromMs).toBeLessThan(seen[0]!.fromMs);
    handle.showTimeWindow({ fromMs: 1000, toMs: 2000 });
    expect(seen.at(-1)!.fromMs).toBeCloseTo(1000);
  });

  it('zooms in from the fitted view when "Zoom in" comes while "Fit to run" still glides', () => {
    // Motion on: the fit glides back to the whole run over 250 ms.
    const { handle } = draw(undefined, false);
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
