import { useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Verdict } from '../../check/verdict';
import type { TraceEvent } from '../../sim/traceEvents';
import { exportPng, exportSvg } from '../../timeline/export';
import { groupClients } from '../../timeline/laneGroups';
import type { Lane } from '../../timeline/model';
import { renderTimeline, type TimeWindow, type TimelineHandle } from '../../timeline/renderTimeline';
import { firstDrawn, kindsDrawnBy } from '../../timeline/markKinds';
import { Legend } from './Legend';
import { LaneHighlight, LaneOverlays, PlotOverlay, type PlotPlace } from './TimelineOverlays';
import { useTimelineModel, type TimelineModels } from './useTimelineModel';
import { ZoomGroupContext } from './zoomGroup';
import './timeline.css';

/**
 * The narrowest the diagram is drawn, in CSS pixels. A phone's whole run fits its screen by
 * default (the renderer fits what it is given); zooming in then scrolls inside the plot.
 */
const MIN_WIDTH_PX = 300;

export interface TimelineViewProps {
  events: readonly TraceEvent[];
  verdicts: readonly Verdict[];
  /** Index of the current event: events with id <= cursor have happened; later ones are not drawn. */
  cursor: number;
  /** Where the playhead sits in virtual ms; defaults to the time of the current event. */
  playheadMs?: number;
  selectedId?: number;
  onSelect?: (eventId: number) => void;
  /** The svg's accessible name. */
  title: string;
  /** Show the legend under the timeline (default true). */
  legend?: boolean;
  /** Something to place on each lane's label (e.g. the actor's action menu), positioned by the view. */
  laneOverlay?: (lane: Lane) => ReactNode;
  /**
   * Something about one lane (an actor's statechart), shown under the whole diagram with that
   * lane's row outlined: over the lanes it would hide the run the learner is stepping through
   * (issue 35: it covered the lanes below).
   */
  laneDetail?: { laneId: string; content: ReactNode };
  /** Something drawn over the plot in time and lane coordinates (the player's editable marks), kept in step with zoom and pan. */
  plotOverlay?: (place: PlotPlace) => ReactNode;
  /** The window the first run opens on (the scenario's `view`); keep it one object per scenario. */
  opensOn?: TimeWindow;
}

/**
 * The space-time diagram. React owns the container and the toolbar; D3 (renderTimeline) owns
 * everything inside the <svg>. A very long run is read a slice at a time first (useTimelineModel).
 */
export function TimelineView(props: TimelineViewProps) {
  const models = useTimelineModel(props.events, props.verdicts);
  if (!models) {
    return (
      <p className="timeline-reading" role="status">
        Reading {props.events.length.toLocaleString('en')} events to draw the timeline…
      </p>
    );
  }
  return <TimelineDiagram {...props} models={models} />;
}

function TimelineDiagram({
  events,
  cursor,
  playheadMs,
  selectedId,
  onSelect,
  title,
  legend = true,
  laneOverlay,
  laneDetail,
  plotOverlay,
  opensOn,
  models,
}: TimelineViewProps & { models: TimelineModels }) {
  const { full: fullModel, folded } = models;
  const hostRef = useRef<HTMLDivElement>(null);
  const overlaysRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const handleRef = useRef<TimelineHandle | null>(null);
  const onSelectRef = useRef(onSelect);
  // Null until the host is measured (in a layout effect, before the first paint): drawing at a
  // guessed width would draw the whole diagram twice as the page opens.
  const [measuredWidth, setWidth] = useState<number | null>(null);
  const width = measuredWidth ?? 960;
  // The legend explains the marks drawn up to the playhead (a sorted string: it redraws only when they change).
  const firstKinds = useMemo(() => firstDrawn(fullModel), [fullModel]);
  const drawnKinds = useMemo(() => [...kindsDrawnBy(firstKinds, cursor)].sort().join(' '), [firstKinds, cursor]);
  // A herd's clients start folded into one summary lane; the learner can unfold them.
  // One client can be pulled out onto its own lane, to follow it through the herd.
  const [unfolded, setUnfolded] = useState(false);
  const [pulledOut, setPulledOut] = useState('');
  const foldable = folded !== null;
  const model = useMemo(
    () => (!folded || unfolded ? fullModel : pulledOut ? groupClients(fullModel, new Set([pulledOut])) : folded),
    [fullModel, folded, unfolded, pulledOut],
  );
  const clients = useMemo(
    () => (foldable ? fullModel.lanes.filter((l) => l.role === 'client') : []),
    [fullModel, foldable],
  );
  const clientCount = clients.length;

  useLayoutEffect(() => {
    onSelectRef.current = onSelect;
  });

  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // Narrower than this, a run's lanes squeeze into a strip nobody can read: the diagram keeps
    // this width and its frame scrolls sideways instead.
    const measure = () => setWidth(Math.max(MIN_WIDTH_PX, Math.floor(host.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  const cursorMs = playheadMs ?? events[Math.max(0, Math.min(cursor, events.length - 1))]?.at ?? 0;

  // Inside a compare block the sides zoom and pan together: this timeline's window changes are
  // told to its group, and the group shows the others' changes here.
  const zoomGroup = useContext(ZoomGroupContext);
  const showWindow = useMemo(() => (w: TimeWindow) => handleRef.current?.showTimeWindow(w), []);
  // The window the plot shows, for an overlay that must follow zoom and pan (kept only then).
  const [shownWindow, setShownWindow] = useState<TimeWindow | null>(null);
  const noteWindow = useMemo(
    () => (w: TimeWindow | null) =>
      setShownWindow((old) => (w === null || (old && old.fromMs === w.fromMs && old.toMs === w.toMs) ? old : w)),
    [],
  );
  const followsWindow = plotOverlay !== undefined;
  const heldWindow = useRef<TimeWindow | null>(null);
  const holdWindow = useMemo(
    () => (hold: boolean) => {
      heldWindow.current = hold ? (handleRef.current?.timeWindow() ?? null) : null;
    },
    [],
  );

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || measuredWidth === null) return;
    handleRef.current = renderTimeline(svg, model, {
      cursorMs,
      cursorId: cursor,
      width: measuredWidth,
      title,
      // A narrow plot opens on its key writes (momentZoom.ts), except side by side: a comparison
      // shows both whole runs at one scale (the sides zoom together), not each at its own moment.
      zoomToMoment: zoomGroup === null,
      ...(opensOn ? { opensOn } : {}),
      onSelect: (id) => onSelectRef.current?.(id),
      ...(selectedId === undefined ? {} : { selectedId }),
      ...(zoomGroup || followsWindow
        ? {
            onTimeWindow: (w: TimeWindow) => {
              zoomGroup?.moved(showWindow, w);
              if (followsWindow) noteWindow(w);
            },
          }
        : {}),
    });
    if (heldWindow.current) handleRef.current.showTimeWindow(heldWindow.current);
    if (followsWindow) noteWindow(handleRef.current.timeWindow());
  }, [
    model,
    cursorMs,
    cursor,
    measuredWidth,
    title,
    selectedId,
    zoomGroup,
    showWindow,
    followsWindow,
    noteWindow,
    opensOn,
  ]);

  // Joined again with each new run, so a side that finishes loading later takes the window the
  // other side already shows.
  useEffect(() => zoomGroup?.join(showWindow), [zoomGroup, showWindow, model]);

  useEffect(() => () => handleRef.current?.destroy(), []);

  // A chosen event (clicked here, or a verdict's evidence further down the page) is brought into
  // view: the page scrolls to the diagram and, on a narrow screen, the frame scrolls sideways to
  // the mark. Two frames later, because the diagram pans to the moved playhead on the next one.
  useEffect(() => {
    if (selectedId === undefined) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        const mark = svgRef.current?.querySelector('.tl-selected');
        const smooth = typeof matchMedia === 'function' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
        (mark ?? hostRef.current)?.scrollIntoView({
          block: 'nearest',
          inline: 'center',
          behavior: smooth ? 'smooth' : 'auto',
        });
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [selectedId]);

  const download = (blob: Blob, name: string) => {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  // The lane menus stay as they are while only the cursor moves.
  const overlays = useMemo(
    () =>
      laneOverlay && (
        <div ref={overlaysRef} className="timeline-lane-slots">
          <LaneOverlays lanes={model.lanes} width={width} render={laneOverlay} />
        </div>
      ),
    [laneOverlay, model.lanes, width],
  );
  // When the frame scrolls sideways (a phone), the lane labels and their menus keep to its left edge.
  const onScroll = () => {
    const left = hostRef.current?.scrollLeft ?? 0;
    handleRef.current?.setLabelOffset(left);
    if (overlaysRef.current) overlaysRef.current.style.transform = left ? `translateX(${left}px)` : '';
  };
  const fileName =
    title
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'timeline';

  return (
    <div className="timeline-view">
      <div className="timeline-toolbar" role="group" aria-label="Timeline view">
        <button type="button" onClick={() => handleRef.current?.zoomBy(1.5)}>
          Zoom in
        </button>
        <button type="button" onClick={() => handleRef.current?.zoomBy(1 / 1.5)}>
          Zoom out
        </button>
        <button type="button" onClick={() => handleRef.current?.fitToRun()}>
          Fit to run
        </button>
        {foldable && (
          // The label says what a press does (so no aria-pressed, whose label must stay the same).
          <button type="button" className="timeline-fold" onClick={() => setUnfolded(!unfolded)}>
            {unfolded ? `Fold the ${clientCount} clients into one lane` : `Show each of the ${clientCount} clients`}
          </button>
        )}
        {foldable && !unfolded && (
          <label className="timeline-pull-out">
            Own lane for{' '}
            <select value={pulledOut} onChange={(e) => setPulledOut(e.target.value)}>
              <option value="">no one</option>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="button"
          onClick={() =>
            svgRef.current && (handleRef.current?.sharpen(), download(exportSvg(svgRef.current), `${fileName}.svg`))
          }
        >
          Export SVG
        </button>
        <button
          type="button"
          onClick={() =>
            svgRef.current &&
            (handleRef.current?.sharpen(), void exportPng(svgRef.current).then((b) => download(b, `${fileName}.png`)))
          }
        >
          Export PNG
        </button>
        <span className="timeline-hint" aria-hidden="true">
          Scroll or pinch to zoom · drag to pan · +/− and arrows when focused
        </span>
      </div>
      <div className="timeline-frame">
        <div className="timeline-svg-host" ref={hostRef} onScroll={onScroll}>
          <svg ref={svgRef} />
          {overlays}
          {plotOverlay && shownWindow && (
            <PlotOverlay
              lanes={model.lanes}
              width={width}
              window={shownWindow}
              holdWindow={holdWindow}
              render={plotOverlay}
            />
          )}
        </div>
        {laneDetail && (
          <LaneHighlight
            lanes={model.lanes}
            width={width}
            borderPx={hostRef.current?.clientTop ?? 0}
            laneId={laneDetail.laneId}
          />
        )}
      </div>
      {laneDetail && (
        <div className="timeline-lane-detail" data-lane={laneDetail.laneId}>
          {laneDetail.content}
        </div>
      )}
      {legend && (
        // Open where there is room; on a phone the key folds away so the diagram stays in view.
        <details className="timeline-legend-box" open={width >= 700}>
          <summary>What the marks mean</summary>
          <Legend server={model.lockServer} drawn={drawnKinds} />
        </details>
      )}
    </div>
  );
}
