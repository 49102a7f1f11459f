import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CompareRun } from '../../lessons/types';
import { ScenarioPlayer } from '../player/ScenarioPlayer';
import type { PlayerStore } from '../player/playerStore';
import { CompareSlot } from '../player/compareSlot';
import type { ComputedRun } from '../player/runModel';
import { ZoomGroupContext, zoomGroup } from '../timeline/zoomGroup';

/**
 * The same scenario twice, with one thing changed, so the learner can see the difference. The
 * two sides share one playhead (moving either moves both) and one zoom (zooming or panning
 * either timeline shows the same seconds on the other), and the setting that differs is fixed:
 * neither side offers the fencing switch, so the comparison cannot be undone by accident.
 */
export function CompareBlock({
  title,
  left,
  right,
  onWatched,
  firstRuns,
}: {
  title?: string;
  left: CompareRun;
  right: CompareRun;
  onWatched?: () => void;
  firstRuns?: [left: Promise<ComputedRun | null>, right: Promise<ComputedRun | null>];
}) {
  const sides = useMemo(
    () =>
      [left, right].map((run) => ({
        ...run,
        scenario: { ...run.scenario, controls: run.scenario.controls.filter((c) => c !== 'toggle-fencing') },
      })),
    [left, right],
  );
  const stores = useRef<(PlayerStore | null)[]>([null, null]);
  const zoom = useMemo(() => zoomGroup(), []);
  const [ready, setReady] = useState(0);
  // Each side is a group named by its heading ("Your run", "The lesson’s run"), as a reader calls it.
  const sideId = useId();
  useEffect(() => {
    const [a, b] = stores.current;
    return a && b ? linkPlayheads(a, b) : undefined;
  }, [ready]);

  return (
    <section className="block compare" aria-label={title ?? 'Compare two runs'}>
      <p className="block-kicker" aria-hidden="true">
        Compare
      </p>
      {title && <h3 className="block-title">{title}</h3>}
      <p className="compare-hint muted">Both sides move together: play, step, scrub or zoom either one.</p>
      <ZoomGroupContext.Provider value={zoom}>
        {/* A side is already one of two runs compared: it offers no comparison of its own. */}
        <CompareSlot.Provider value={null}>
          <div className="compare-grid">
            {sides.map((run, i) => (
              <div key={run.label} className="compare-side" role="group" aria-labelledby={`${sideId}-${i}`}>
                <h4 id={`${sideId}-${i}`}>{run.label}</h4>
                <ScenarioPlayer
                  scenario={run.scenario}
                  {...(run.run ? { initialRun: run.run } : {})}
                  {...(onWatched ? { onWatched } : {})}
                  {...(firstRuns ? { firstRun: firstRuns[i]! } : {})}
                  onStore={(store) => {
                    stores.current[i] = store;
                    setReady((n) => n + 1);
                  }}
                />
              </div>
            ))}
          </div>
        </CompareSlot.Provider>
      </ZoomGroupContext.Provider>
    </section>
  );
}

/**
 * Keeps two players' playheads together. A move on either side is copied to the other; the
 * copy's own change notice is ignored, so a side that clamps the time (its run ends sooner)
 * does not pull the other back.
 */
function linkPlayheads(a: PlayerStore, b: PlayerStore): () => void {
  let copying = false;
  const follow = (from: PlayerStore, to: PlayerStore) =>
    from.subscribe((state, previous) => {
      if (copying || state.playheadMs === previous.playheadMs || state.events.length === 0) return;
      copying = true;
      try {
        to.getState().seekTime(state.playheadMs);
      } finally {
        copying = false;
      }
    });
  const stopA = follow(a, b);
  const stopB = follow(b, a);
  return () => {
    stopA();
    stopB();
  };
}
