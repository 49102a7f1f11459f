import * as Plot from '@observablehq/plot';
import type { LockMetrics } from '../../check/metrics';

/**
 * Draws the lock dashboard's charts into `container` (replacing what was there): attempts per
 * time slice, clients waiting, acquire latency, and the moments the lock lied (lost leases,
 * renewal failures, fencing rejections). All four share one time axis, and every pause of the
 * run is a grey band across each of them, so a spike can be read against the stall behind it.
 * Loaded with a dynamic import: Plot is only downloaded by pages that show a dashboard.
 */
export function drawDashboard(container: HTMLElement, metrics: LockMetrics, names: ReadonlyMap<string, string>): void {
  const name = (id: string) => names.get(id) ?? id;
  const s = (ms: number) => ms / 1000;
  const spanS = Math.max(s(metrics.spanMs), 0.001);
  const width = Math.max(320, Math.min(container.clientWidth || 640, 900));
  const { series } = metrics;
  const pauses = series.pauses.map((p) => ({
    x1: s(p.startMs),
    x2: s(p.endMs),
    title: `${name(p.actor)} paused ${s(p.startMs).toFixed(1)}–${s(p.endMs).toFixed(1)} s`,
  }));
  const pauseBands = Plot.rect(pauses, { x1: 'x1', x2: 'x2', fill: 'currentColor', fillOpacity: 0.1, title: 'title' });
  const base = {
    width,
    height: 130,
    marginLeft: 118,
    marginBottom: 30,
    x: { domain: [0, spanS], label: 'time (s)' },
  } as const;

  const attempts = series.attempts.map((a) => ({ atS: s(a.atMs), outcome: a.granted ? 'granted' : 'refused' }));
  const waiting = [...series.waiting.map((w) => ({ atS: s(w.atMs), count: w.count }))];
  if (waiting.length) waiting.push({ atS: spanS, count: waiting[waiting.length - 1]!.count });
  const latencies = series.acquisitions.map((a) => ({
    atS: s(a.atMs),
    latencyS: s(a.latencyMs),
    title: `${name(a.client)} waited ${s(a.latencyMs).toFixed(2)} s`,
  }));
  const p = metrics.acquireLatencyMs;
  const secs = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${s(ms).toFixed(2)} s`);
  // p95 and p99 are often close: one label sits above its line, the other below.
  const marks = p
    ? (
        [
          ['p50', p.p50, -4],
          ['p95', p.p95, 11],
          ['p99', p.p99, -4],
        ] as const
      ).map(([label, ms, dy]) => ({ label, latencyS: s(ms), dy }))
    : [];
  const incidents = [
    ...series.lostLeases.map((e) => ({
      atS: s(e.atMs),
      kind: 'lost lease',
      title: `${name(e.client)}'s lease ended under it`,
    })),
    ...series.renewalFailures.map((e) => ({
      atS: s(e.atMs),
      kind: 'renewal failed',
      title: `${name(e.client)} gave up its lease`,
    })),
    ...series.fencingRejections.map((e) => ({
      atS: s(e.atMs),
      kind: 'fencing rejection',
      title: `${name(e.client)}'s stale write refused`,
    })),
  ];

  const charts: [string, string, SVGSVGElement | HTMLElement][] = [
    [
      'Lock attempts over time',
      `${metrics.attempts} attempts: ${metrics.acquired} granted (green), ${metrics.refused} refused (amber)`,
      Plot.plot({
        ...base,
        y: { label: 'attempts', grid: true },
        // No Plot legend (it would wrap the chart in a figure of its own): the caption names the colours.
        color: { domain: ['granted', 'refused'], range: ['#1e6b3a', '#c8a25a'] },
        marks: [
          pauseBands,
          Plot.rectY(
            attempts,
            Plot.binX({ y: 'count' }, {
              x: 'atS',
              fill: 'outcome',
              thresholds: 200,
              domain: [0, spanS],
            } as Plot.BinXInputs<Plot.RectYOptions>),
          ),
          Plot.ruleY([0]),
        ],
      }),
    ],
    [
      'Clients waiting for the lock',
      `at most ${metrics.peakWaiting} at once`,
      Plot.plot({
        ...base,
        y: { label: 'waiting', grid: true },
        marks: [
          pauseBands,
          Plot.lineY(waiting, { x: 'atS', y: 'count', curve: 'step-after', stroke: '#1f4e5f' }),
          Plot.ruleY([0]),
        ],
      }),
    ],
    [
      'Acquire latency',
      p ? `p50 ${secs(p.p50)}, p95 ${secs(p.p95)}, p99 ${secs(p.p99)}` : 'nobody got the lock',
      Plot.plot({
        ...base,
        y: { label: 'wait (s)', grid: true },
        marks: [
          pauseBands,
          Plot.dot(latencies, { x: 'atS', y: 'latencyS', r: 2.5, fill: '#1f4e5f', title: 'title' }),
          Plot.ruleY(marks, { y: 'latencyS', stroke: '#a3302a', strokeDasharray: '3,3' }),
          ...marks.map((m) =>
            Plot.text([m], { x: spanS, y: 'latencyS', text: 'label', textAnchor: 'end', dy: m.dy, fill: '#a3302a' }),
          ),
        ],
      }),
    ],
    [
      'When the lock lied',
      [
        count(metrics.lostLeases, 'lost lease'),
        count(metrics.renewalFailures, 'renewal failure'),
        count(metrics.fencingRejections, 'fencing rejection'),
      ].join(', '),
      Plot.plot({
        ...base,
        height: 110,
        y: { domain: ['lost lease', 'renewal failed', 'fencing rejection'], label: null },
        marks: [
          pauseBands,
          Plot.tickX(incidents, { x: 'atS', y: 'kind', stroke: '#a3302a', strokeWidth: 2.5, title: 'title' }),
        ],
      }),
    ],
  ];

  const figures = charts.map(([title, summary, chart]) => {
    const figure = document.createElement('figure');
    const heading = document.createElement('h5');
    heading.textContent = title;
    const caption = document.createElement('figcaption');
    caption.className = 'dashboard-note';
    caption.textContent = summary;
    // Plot labels each mark's group ("rect", "line"): inside an image those labels mean nothing
    // to a screen reader, and ARIA does not allow them on plain groups. One label for the whole.
    for (const part of chart.querySelectorAll('[aria-label], [aria-description]')) {
      part.removeAttribute('aria-label');
      part.removeAttribute('aria-description');
    }
    chart.setAttribute('aria-label', `${title}: ${summary}`);
    chart.setAttribute('role', 'img');
    figure.append(heading, chart, caption);
    return figure;
  });
  container.replaceChildren(...figures);
}

/** "1 lost lease", "2 lost leases". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
