import type { Verdict } from '../../check/verdict';
import type { TraceEvent } from '../../sim/traceEvents';
import { groupClients } from '../laneGroups';
import { buildTimelineModel } from '../model';
import { renderTimeline } from '../renderTimeline';

/** What one measurement found, in milliseconds. */
export interface TimelineBenchResult {
  events: number;
  /** Build the model, draw it and reach the next painted frame. */
  firstRenderMs: number;
  /** Script + style + layout of one zoom/pan frame, 95th percentile. */
  frameWorkP95Ms: number;
  /** Time between animation frames while zooming, 95th percentile (16.7 means every frame made it). */
  frameIntervalP95Ms: number;
  /** Whether the dense layers were on the canvas. */
  dense: boolean;
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** The p-th percentile (0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Browser-only: renders `events` into `svg` and zooms and pans it for `frames` animation
 * frames, timing each. Run it in Chromium (for example from a Playwright page) on a trace from
 * syntheticTrace(), or on a real run (`folded`: its clients in one lane, as the player first shows a herd).
 */
export async function measureTimeline(
  svg: SVGSVGElement,
  events: readonly TraceEvent[],
  verdicts: readonly Verdict[] = [],
  frames = 120,
  width = 1200,
  folded = false,
): Promise<TimelineBenchResult> {
  await nextFrame();
  const t0 = performance.now();
  const full = buildTimelineModel(events, verdicts);
  const model = folded ? groupClients(full) : full;
  const last = events.at(-1);
  const handle = renderTimeline(svg, model, {
    cursorMs: last?.at ?? 0,
    cursorId: last?.id ?? 0,
    width,
    followCursor: false,
    reducedMotion: true,
  });
  svg.getBoundingClientRect();
  await nextFrame();
  const firstRenderMs = performance.now() - t0;

  const work: number[] = [];
  const intervals: number[] = [];
  let prev = await nextFrame();
  for (let i = 0; i < frames; i++) {
    const now = await nextFrame();
    intervals.push(now - prev);
    prev = now;
    const start = performance.now();
    // Zoom in for a while, then back out, panning a little each frame like a trackpad would.
    handle.zoomBy(i % 60 < 30 ? 1.12 : 1 / 1.12);
    handle.panByPx(i % 2 === 0 ? 12 : -7);
    handle.redrawNow();
    svg.getBoundingClientRect();
    work.push(performance.now() - start);
  }
  const result = {
    events: events.length,
    firstRenderMs,
    frameWorkP95Ms: percentile(work, 95),
    frameIntervalP95Ms: percentile(intervals, 95),
    dense: handle.dense(),
  };
  handle.destroy();
  return result;
}
