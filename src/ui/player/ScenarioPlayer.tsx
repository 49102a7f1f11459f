import { useRef, type ComponentType } from 'react';
import { loader, useLoaded } from '../layout/loader';
import { useRoute } from '../routing/useRoute';
import { warmSimulator } from '../worker/playerSimulator';
import { useNearOrSoon } from './nearViewport';
import type { ScenarioPlayerProps } from './ScenarioPlayerLive';

export type { ScenarioPlayerProps };

/**
 * Fetches the player: the timeline, D3 and the panels are one lazy chunk, so the course map and
 * lessons without a scenario never download them. main.tsx calls it as a lesson opens, so the
 * chunk loads beside the lesson's body rather than after it has rendered.
 */
export const loadLive = loader<ComponentType<ScenarioPlayerProps>>(() =>
  import('./ScenarioPlayerLive').then((m) => m.ScenarioPlayerLive),
);

/** A live simulation embedded in a lesson (its code loaded on first use, see loadLive). */
export function ScenarioPlayer(props: ScenarioPlayerProps) {
  // The simulation worker's Lua VM takes longer to load than the player's chunk: start it with
  // the first render of the first player on the page (the worker is a separate file, fetched then).
  // A lesson's player may have its first run shipped (firstRuns.ts): its first request of the
  // worker (its inspector, or its own run when none was shipped) starts it instead.
  if (!props.firstRun) warmSimulator();
  const [Live, failure] = useLoaded(loadLive);
  // A lesson can hold seven players: the one in sight mounts as soon as the code is there, the
  // others one per idle moment after it, so that the learner's first player is not kept waiting
  // while six out of sight build their controls.
  const inLesson = useRoute().name === 'lesson';
  const section = useRef<HTMLElement>(null);
  const turn = useNearOrSoon(section, inLesson && Live !== null);
  // On screen as it mounts: it draws its timeline in the same task, without looking again.
  if (Live && (turn !== null || !inLesson)) return <Live {...props} {...(turn === 'near' ? { inSight: true } : {})} />;
  return (
    <section
      ref={section}
      className="player player-placeholder"
      aria-label={`Simulation: ${props.scenario.title}`}
      aria-busy={failure === null}
    >
      {failure === null ? (
        <p className="player-loading">Loading the simulator…</p>
      ) : (
        <p role="alert">The simulator could not be loaded: {failure}. Check the connection and reload the page.</p>
      )}
    </section>
  );
}
