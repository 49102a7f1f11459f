import type { ReactNode } from 'react';
import type { Lane } from '../../timeline/model';
import type { TimeWindow } from '../../timeline/renderTimeline';
import { computeLayout } from '../../timeline/scales';

// What React draws over the diagram's SVG: the open lane's outline and each lane's overlay.

/** Where things sit on the plot now: the overlay's own coordinates, its origin at the plot's top left. */
export interface PlotPlace {
  /** The x of a virtual time, in pixels from the plot's left edge. */
  xOf(ms: number): number;
  /** Virtual ms per pixel at the current zoom (a drag's distance in time). */
  msPerPx: number;
  /** The top of a lane's row, or null when it is not drawn (a client folded into a herd). */
  laneTop(laneId: string): number | null;
  laneHeightPx: number;
  widthPx: number;
  /** The plot's height, every lane's row (a line across all lanes, as a drag's snap guide). */
  heightPx: number;
  /**
   * Keeps the plot on the seconds it shows now, whatever run is drawn next, until released: a
   * run shown mid-drag that ends sooner would otherwise rescale the axis under the pointer.
   */
  holdWindow(hold: boolean): void;
}

/** The outline of the row whose detail is open under the diagram (none for a lane not drawn: a client folded into a herd). */
export function LaneHighlight({
  lanes,
  width,
  borderPx,
  laneId,
}: {
  lanes: Lane[];
  width: number;
  borderPx: number;
  laneId: string;
}) {
  const lane = lanes.find((l) => l.id === laneId);
  if (!lane) return null;
  const layout = computeLayout(lanes.length, width);
  // The frame's top border lies between the anchor's edge and the diagram.
  const top = borderPx + layout.axisHeightPx + lane.index * layout.laneHeightPx;
  return <div className="timeline-lane-highlight" aria-hidden="true" style={{ top, height: layout.laneHeightPx }} />;
}

/** HTML over the plot, clipped to it, placed in time by the window the plot shows. */
export function PlotOverlay({
  lanes,
  width,
  window: w,
  holdWindow,
  render,
}: {
  lanes: Lane[];
  width: number;
  window: TimeWindow;
  holdWindow: (hold: boolean) => void;
  render: (place: PlotPlace) => ReactNode;
}) {
  const layout = computeLayout(lanes.length, width);
  const msPerPx = (w.toMs - w.fromMs) / layout.plotWidthPx;
  const place: PlotPlace = {
    xOf: (ms) => (ms - w.fromMs) / msPerPx,
    msPerPx,
    laneTop: (id) => {
      const lane = lanes.find((l) => l.id === id);
      return lane ? lane.index * layout.laneHeightPx : null;
    },
    laneHeightPx: layout.laneHeightPx,
    widthPx: layout.plotWidthPx,
    heightPx: layout.plotHeightPx,
    holdWindow,
  };
  return (
    <div
      className="timeline-plot-overlay"
      style={{
        left: layout.labelWidthPx,
        top: layout.axisHeightPx,
        width: layout.plotWidthPx,
        height: layout.plotHeightPx,
      }}
    >
      {render(place)}
    </div>
  );
}

/** HTML placed over the lane labels, one slot per lane, top-right of each label. */
export function LaneOverlays({
  lanes,
  width,
  render,
}: {
  lanes: Lane[];
  width: number;
  render: (lane: Lane) => ReactNode;
}) {
  const layout = computeLayout(lanes.length, width);
  return (
    <>
      {lanes.map((lane) => {
        const content = render(lane);
        if (!content) return null;
        return (
          <div
            key={lane.id}
            className="timeline-lane-slot"
            style={{ top: layout.axisHeightPx + lane.index * layout.laneHeightPx + 21, left: layout.labelWidthPx - 34 }}
          >
            {content}
          </div>
        );
      })}
    </>
  );
}
