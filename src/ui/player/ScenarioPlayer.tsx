import { lazy, Suspense } from 'react';
import type { ScenarioPlayerProps } from './ScenarioPlayerLive';

export type { ScenarioPlayerProps };

// The simulator, the timeline (D3) and the inspector are one lazy chunk: the course map and
// lessons without a scenario never download them, which keeps the first page small.
const Live = lazy(() => import('./ScenarioPlayerLive').then((m) => ({ default: m.ScenarioPlayerLive })));

/** A live simulation embedded in a lesson (loaded on first use). */
export function ScenarioPlayer(props: ScenarioPlayerProps) {
  return (
    <Suspense
      fallback={
        <section className="player" aria-label={`Simulation: ${props.scenario.title}`} aria-busy="true">
          <p className="player-loading">Loading the simulator…</p>
        </section>
      }
    >
      <Live {...props} />
    </Suspense>
  );
}
