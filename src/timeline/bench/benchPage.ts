import type { Verdict } from '../../check/verdict';
import type { TraceEvent } from '../../sim/traceEvents';
import { measureTimeline } from './measureTimeline';
import { syntheticTrace } from './syntheticTrace';

/**
 * The browser side of src/bench/uiFigures.ts: a page with one empty svg that exposes the timeline
 * measurement, so Playwright can call it for each trace size in a fresh page.
 */
declare global {
  interface Window {
    lockstepBench: (events: number, frames?: number) => ReturnType<typeof measureTimeline>;
  }
}

window.lockstepBench = (events, frames = 120) => {
  const svg = document.getElementById('bench') as unknown as SVGSVGElement;
  const trace = syntheticTrace({ events });
  return measureTimeline(svg, trace.events, trace.verdicts, frames, 1200);
};

declare global {
  interface Window {
    lockstepBenchRun: (
      events: TraceEvent[],
      verdicts: Verdict[],
      folded: boolean,
      frames?: number,
    ) => ReturnType<typeof measureTimeline>;
  }
}

/**
 * The same measurement on a real run the caller made in Node (lesson 13's fifty-client herd):
 * the page draws only what the timeline draws and never runs a simulation itself.
 */
window.lockstepBenchRun = (events, verdicts, folded, frames = 120) => {
  const svg = document.getElementById('bench') as unknown as SVGSVGElement;
  return measureTimeline(svg, events, verdicts, frames, 1200, folded);
};

declare global {
  interface Window {
    lockstepProfile: (
      events: number,
    ) => Promise<{ scriptP95Ms: number; layoutP95Ms: number; zoomP95Ms: number; elements: number }>;
  }
}

/** Splits a zoom frame into our script and the browser's style + layout, to see which to cut. */
window.lockstepProfile = async (events) => {
  const { renderTimeline } = await import('../renderTimeline');
  const { buildTimelineModel } = await import('../model');
  const { percentile } = await import('./measureTimeline');
  const host = document.createElement('div');
  host.style.width = '1200px';
  host.innerHTML = '<svg></svg>';
  document.body.append(host);
  const svg = host.querySelector('svg')!;
  const trace = syntheticTrace({ events });
  const last = trace.events.at(-1)!;
  const handle = renderTimeline(svg, buildTimelineModel(trace.events, []), {
    cursorMs: last.at,
    cursorId: last.id,
    width: 1200,
    followCursor: false,
    reducedMotion: true,
  });
  svg.getBoundingClientRect();
  const script: number[] = [];
  const layout: number[] = [];
  const zoomMs: number[] = [];
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const tz = performance.now();
    handle.zoomBy(i % 60 < 30 ? 1.12 : 1 / 1.12);
    handle.panByPx(i % 2 === 0 ? 12 : -7);
    const t0 = performance.now();
    zoomMs.push(t0 - tz);
    handle.redrawNow();
    const t1 = performance.now();
    svg.getBoundingClientRect();
    layout.push(performance.now() - t1);
    script.push(t1 - t0);
  }
  const elements = svg.querySelectorAll('*').length;
  handle.destroy();
  host.remove();
  return {
    scriptP95Ms: percentile(script, 95),
    layoutP95Ms: percentile(layout, 95),
    zoomP95Ms: percentile(zoomMs, 95),
    elements,
  };
};

declare global {
  interface Window {
    lockstepShow: (events: number, zoomSteps: number) => Promise<void>;
  }
}

/** Draws a synthetic run and zooms in by `zoomSteps` frames, leaving it live (to look at how it settles). */
window.lockstepShow = async (events, zoomSteps) => {
  const { renderTimeline } = await import('../renderTimeline');
  const { buildTimelineModel } = await import('../model');
  const svg = document.getElementById('bench') as unknown as SVGSVGElement;
  const trace = syntheticTrace({ events });
  const last = trace.events.at(-1)!;
  const handle = renderTimeline(svg, buildTimelineModel(trace.events, trace.verdicts), {
    cursorMs: last.at,
    cursorId: last.id,
    width: 1200,
    followCursor: false,
    reducedMotion: true,
  });
  for (let i = 0; i < zoomSteps; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    handle.zoomBy(1.12);
  }
};
