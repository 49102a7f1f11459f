import type { Selection } from 'd3-selection';
import { ink, inkMuted, okabeIto } from '../palette';

/**
 * Patterns, arrowheads and the embedded stylesheet. They live inside the <svg> so an exported
 * file looks exactly like the page. Ids are prefixed per timeline so two on a page never clash.
 */
export function ensureDefs(root: Selection<SVGSVGElement, unknown, null, undefined>, prefix: string): void {
  if (!root.select('defs.tl-defs').empty()) return;
  const defs = root.append('defs').attr('class', 'tl-defs');

  const hatch = (id: string, color: string, angle: number, gap: number, widthPx: number, background: string | null) => {
    const p = defs
      .append('pattern')
      .attr('id', `${prefix}-${id}`)
      .attr('patternUnits', 'userSpaceOnUse')
      .attr('width', gap)
      .attr('height', gap)
      .attr('patternTransform', `rotate(${angle})`);
    if (background) p.append('rect').attr('width', gap).attr('height', gap).attr('fill', background);
    p.append('line')
      .attr('x1', 0)
      .attr('y1', 0)
      .attr('x2', 0)
      .attr('y2', gap)
      .attr('stroke', color)
      .attr('stroke-width', widthPx);
  };
  hatch('pause', inkMuted, 45, 7, 1.6, '#eceef1');
  hatch('crash', ink, -45, 6, 2, '#d9d9de');
  hatch('stale', okabeIto.vermillion, 45, 6, 2, '#fde9dc');
  hatch('violation', okabeIto.vermillion, -45, 10, 1.4, null);
  hatch('future', '#e3e5e9', 45, 12, 1, '#fafafb');
  hatch('partition', '#f0b48a', 90, 8, 1.2, '#fff7f1');

  const arrow = (id: string, color: string) =>
    defs
      .append('marker')
      .attr('id', `${prefix}-${id}`)
      .attr('viewBox', '0 0 10 10')
      .attr('refX', 9)
      .attr('refY', 5)
      .attr('markerWidth', 7)
      .attr('markerHeight', 7)
      .attr('markerUnits', 'userSpaceOnUse')
      .attr('orient', 'auto-start-reverse')
      .append('path')
      .attr('d', 'M0,0 L10,5 L0,10 z')
      .attr('fill', color);
  arrow('arrow', inkMuted);
  arrow('arrow-request', ink);

  // Fades for the scroll cues (scrollCues.ts): paper at the plot's edge, clear towards its middle.
  for (const side of ['left', 'right'] as const) {
    const gradient = defs
      .append('linearGradient')
      .attr('id', `${prefix}-fade-${side}`)
      .attr('x1', side === 'left' ? 0 : 1)
      .attr('x2', side === 'left' ? 1 : 0)
      .attr('y1', 0)
      .attr('y2', 0);
    gradient.append('stop').attr('offset', 0).attr('stop-color', '#ffffff').attr('stop-opacity', 0.95);
    gradient.append('stop').attr('offset', 1).attr('stop-color', '#ffffff').attr('stop-opacity', 0);
  }

  root.append('style').text(stylesheet());
}

/** Rules that only make sense as CSS (focus rings, hover, hidden future marks, motion). */
function stylesheet(): string {
  return `
.tl-root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 12px; }
.tl-root:focus { outline: none; }
.tl-root:focus-visible .tl-plot-frame { stroke: ${okabeIto.blue}; stroke-width: 3; }
.tl-future { display: none; }
.tl-mark { cursor: pointer; }
.tl-mark:focus { outline: none; }
.tl-mark:focus-visible .tl-focus-ring, .tl-mark.tl-selected .tl-focus-ring { stroke: ${ink}; stroke-width: 2.5; stroke-dasharray: 4 2; fill: none; visibility: visible; }
.tl-focus-ring { visibility: hidden; }
.tl-mark:hover .tl-hit { stroke: ${okabeIto.blue}; stroke-width: 1.5; }
/* d3-axis sets font-family="sans-serif" on its group: the labels keep the diagram's font. */
.tl-axis { font-family: inherit; }
.tl-axis text { font-size: 11px; fill: ${inkMuted}; }
.tl-axis path, .tl-axis line { stroke: #b8bcc4; }
.tl-label-name { font-weight: 600; font-size: 13px; fill: ${ink}; }
.tl-label-role { font-size: 11px; fill: ${inkMuted}; }
.tl-label-role.tl-label-name-cont { font-weight: 600; font-size: 13px; fill: ${ink}; }
.tl-label-role.tl-label-state-cont { font-weight: 600; fill: ${ink}; }
.tl-label-state { font-size: 11px; font-weight: 600; fill: ${ink}; }
.tl-band-label { font-size: 11px; font-weight: 600; pointer-events: none; }
.tl-key-row { font-size: 10px; font-weight: 700; font-family: ui-monospace, "SF Mono", "Cascadia Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.tl-token { font-size: 11px; font-weight: 700; fill: ${ink}; pointer-events: none; }
.tl-nonscaling { vector-effect: non-scaling-stroke; }
.tl-unlabelled .tl-token { display: none; }
@media (prefers-reduced-motion: no-preference) { .tl-animate .tl-playhead-group { transition: transform 120ms ease-out; } }
`;
}
