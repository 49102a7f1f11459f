import { useEffect, useState } from 'react';
import { loadScriptEngine } from '../../scenario/run';
import type { Scenario } from '../../scenario/schema';
import { createPlayerStore, type PlayerStore } from './playerStore';
import { PlayerView } from './PlayerView';
import './player.css';

/**
 * A live simulation embedded in a lesson. It loads the Lua VM (lazily: lessons without a
 * scenario never download it), runs the scenario once, and hands the learner the controls.
 */
export function ScenarioPlayer({ scenario }: { scenario: Scenario }) {
  const [store, setStore] = useState<PlayerStore | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setStore(null);
    import('../../redis/lua/wasmUrl')
      .then(({ luaWasmUrl }) => loadScriptEngine({ wasmUrl: luaWasmUrl }))
      .then((scripts) => live && setStore(createPlayerStore(scenario, scripts)))
      .catch((error: unknown) => live && setFailure(error instanceof Error ? error.message : String(error)));
    return () => {
      live = false;
    };
  }, [scenario]);

  if (failure) {
    return (
      <section className="player" aria-label={`Simulation: ${scenario.title}`}>
        <p role="alert">The simulator could not start: {failure}. Reload the page to try again.</p>
      </section>
    );
  }
  if (!store) {
    return (
      <section className="player" aria-label={`Simulation: ${scenario.title}`} aria-busy="true">
        <p className="player-loading">Loading the simulator…</p>
      </section>
    );
  }
  return <PlayerView store={store} />;
}
