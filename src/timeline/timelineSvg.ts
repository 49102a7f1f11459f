import type { TimelineModel } from './modelTypes';
import { renderTimeline } from './renderTimeline';
import type { TimelineViewOptions } from './timelineState';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * A finished picture of a run as a standalone svg element made in `document`: no listeners, no
 * animation, every mark as SVG (no canvas). The document is a parameter, never a global, so the
 * same call draws in a browser tab or in a DOM made in Node (the gallery renders every lesson's
 * run this way).
 * @example const svg = timelineSvg(document, buildTimelineModel(events, verdicts), { width: 900, cursorMs: Infinity });
 */
export function timelineSvg(
  document: Document,
  model: TimelineModel,
  view: Omit<TimelineViewOptions, 'onSelect'>,
): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg') as SVGSVGElement;
  svg.setAttribute('xmlns', SVG_NS);
  const handle = renderTimeline(svg, model, {
    reducedMotion: true,
    followCursor: false,
    denseThreshold: Infinity,
    ...view,
    cursorMs: Math.min(view.cursorMs, model.endMs),
  });
  handle.destroy();
  return svg;
}
