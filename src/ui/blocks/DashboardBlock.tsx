import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { lockMetrics, type LockMetrics } from '../../check/metrics';
import type { Scenario } from '../../scenario/schema/schema';
import type { TraceEvent } from '../../sim/traceEvents';
import { loader } from '../layout/loader';
import { useNearViewport } from '../player/nearViewport';
import type { PlayerStore } from '../player/playerStore';
import type { ComputedRun } from '../player/runModel';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import { useAfterPaint } from '../player/useAfterPaint';
import './dashboard.css';

// Plot's charts: fetched once the metrics they chart are computed, which is after the run has
// been drawn. Fetched at the block's first render instead, their evaluation (~40 ms on a 2-core
// desktop) ran before the player could show a run shipped with the page.
const loadCharts = loader(() => import('./dashboardCharts'));

/**
 * A ```dashboard block: a live scenario, and below it the lock metrics an operator would watch,
 * computed from the run the learner is driving (every pause or crash they add re-runs it and
 * redraws the charts). The numbers are plain text; the charts (Observable Plot) load lazily, so
 * pages without a dashboard never download Plot.
 */
export function DashboardBlock({
  scenario,
  onWatched,
  firstRun,
}: {
  scenario: Scenario;
  onWatched?: () => void;
  firstRun?: Promise<ComputedRun | null>;
}) {
  const [store, setStore] = useState<PlayerStore | null>(null);
  return (
    <section className="block dashboard-block" aria-label={`Dashboard: ${scenario.title}`}>
      <ScenarioPlayer
        scenario={scenario}
        onStore={setStore}
        {...(onWatched ? { onWatched } : {})}
        {...(firstRun ? { firstRun } : {})}
      />
      {store ? <Dashboard store={store} /> : <p className="block-note">The dashboard appears once the run is ready.</p>}
    </section>
  );
}

const NO_EVENTS: readonly TraceEvent[] = [];

function Dashboard({ store }: { store: PlayerStore }) {
  // The metrics of a fifty-client run and Plot's charts of them are the page's heaviest work
  // after the timelines: they follow the run a painted frame behind the player, so that a new
  // run shows on the timeline first, and only once the dashboard nears sight (useNearViewport).
  const events = useAfterPaint<readonly TraceEvent[]>(
    useStore(store, (s) => s.events),
    NO_EVENTS,
  );
  const scenario = useStore(store, (s) => s.scenario);
  const names = useMemo(() => new Map(scenario.clients.map((c) => [c.id, c.label ?? c.id])), [scenario]);
  const dashboard = useRef<HTMLDivElement>(null);
  const near = useNearViewport(dashboard, events.length > 0);
  const computed = useMemo(() => {
    if (!near) return null;
    const start = performance.now();
    const metrics = lockMetrics(events);
    return { metrics, ms: performance.now() - start };
  }, [events, near]);
  const charts = useRef<HTMLDivElement>(null);
  const [chartError, setChartError] = useState<string | null>(null);

  useEffect(() => {
    const container = charts.current;
    if (!container || !computed) return;
    let live = true;
    loadCharts()
      .then(({ drawDashboard }) => {
        if (!live) return;
        const start = performance.now();
        drawDashboard(container, computed.metrics, names);
        // Read by the UI bench: computing the metrics plus drawing the charts, in ms (Plot's
        // download is not counted; it happens once per page).
        container.dataset.renderMs = (computed.ms + performance.now() - start).toFixed(1);
      })
      .catch((error: unknown) => live && setChartError(error instanceof Error ? error.message : String(error)));
    return () => {
      live = false;
    };
  }, [computed, names]);

  return (
    <div ref={dashboard} className="dashboard">
      <h4 className="dashboard-heading">Lock metrics for this run</h4>
      {computed ? (
        <MetricTiles metrics={computed.metrics} />
      ) : (
        <p className="block-note">The metrics appear as you scroll to them.</p>
      )}
      {chartError ? (
        <p role="alert">The charts could not be drawn: {chartError}</p>
      ) : (
        <div ref={charts} className="dashboard-charts" />
      )}
    </div>
  );
}

function MetricTiles({ metrics: m }: { metrics: LockMetrics }) {
  const latency = m.acquireLatencyMs;
  const seconds = (ms: number) =>
    ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const tiles: [string, string, string][] = [
    ['Attempts', String(m.attempts), `${m.refused} refused${m.gaveUp ? `, ${m.gaveUp} gave up` : ''}`],
    ['Success rate', m.successRate === null ? '–' : `${Math.round(m.successRate * 100)}%`, `${m.acquired} granted`],
    ['Contention', String(m.peakWaiting), 'most clients waiting at once'],
    [
      'Acquire latency',
      latency ? seconds(latency.p50) : '–',
      latency ? `p50 · p95 ${seconds(latency.p95)} · p99 ${seconds(latency.p99)}` : 'nobody got the lock',
    ],
    ['Renewal failures', String(m.renewalFailures), 'leases a watchdog gave up'],
    ['Lost leases', String(m.lostLeases), 'ended in Redis under a holder'],
    ['Fencing rejections', String(m.fencingRejections), 'stale writes refused'],
  ];
  return (
    <dl className="dashboard-tiles">
      {tiles.map(([name, value, note]) => (
        <div key={name} className="dashboard-tile" data-metric={name}>
          <dt>{name}</dt>
          <dd>
            <span className="dashboard-value">{value}</span>
            <span className="dashboard-note">{note}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
