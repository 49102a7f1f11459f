import { useEffect, useState, type ComponentType } from 'react';
import { warmSimulator } from '../worker/playerSimulator';
import type { ScenarioPlayerProps } from './ScenarioPlayerLive';

export type { ScenarioPlayerProps };

type Live = ComponentType<ScenarioPlayerProps>;
let loaded: Live | null = null;
let loading: Promise<Live> | null = null;

/**
 * Fetches the player: the timeline, D3 and the panels are one lazy chunk, so the course map and
 * lessons without a scenario never download them. main.tsx calls it as a lesson opens, so the
 * chunk loads beside the lesson's body rather than after it has rendered.
 */
export function loadLive(): Promise<Live> {
  loading ??= import('./ScenarioPlayerLive').then((m) => (loaded = m.ScenarioPlayerLive));
  loading.catch(() => (loading = null));
  return loading;
}

/**
 * A live simulation embedded in a lesson (loaded on first use). Loaded by hand rather than with
 * React.lazy: Suspense holds a resolved boundary back for up to 300 ms after its fallback
 * showed, which would be most of the time a learner waits for the player.
 */
export function ScenarioPlayer(props: ScenarioPlayerProps) {
  // The simulation worker's Lua VM takes longer to load than the player's chunk: start it with
  // the first render of the first player on the page (the worker is a separate file, fetched then).
  // A lesson's player may have its first run shipped (firstRuns.ts): its first request of the
  // worker (its inspector, or its own run when none was shipped) starts it instead.
  if (!props.firstRun) warmSimulator();
  const [Live, setLive] = useState<Live | null>(() => loaded);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (Live) return;
    let live = true;
    loadLive().then(
      (component) => live && setLive(() => component),
      (error: unknown) => live && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [Live]);
  if (Live) return <Live {...props} />;
  return (
    <section className="player" aria-label={`Simulation: ${props.scenario.title}`} aria-busy={failure === null}>
      {failure === null ? (
        <p className="player-loading">Loading the simulator…</p>
      ) : (
        <p role="alert">The simulator could not be loaded: {failure}. Check the connection and reload the page.</p>
      )}
    </section>
  );
}
