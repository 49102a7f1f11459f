import { useEffect, useState } from 'react';
import { loadScriptEngine } from '../../scenario/run';
import type { Scenario } from '../../scenario/schema';
import { useRoute } from '../routing/useRoute';
import { createPlayerStore, type PlayerStore } from './playerStore';
import { PlayerView } from './PlayerView';
import { decodeRun, type SharedRun } from './shareLink';
import './player.css';

export interface ScenarioPlayerProps {
  scenario: Scenario;
  /** Share links carry the scenario itself (the sandbox). */
  embedScenarioInLink?: boolean;
  /** Hands the host the player's store once it exists (the sandbox exports its actions). */
  onStore?: (store: PlayerStore) => void;
}

/**
 * A live simulation embedded in a lesson. It loads the Lua VM (lazily: lessons without a
 * scenario never download it), runs the scenario once, and hands the learner the controls.
 * A `run=` share link in the address restores a run of this scenario exactly.
 */
export function ScenarioPlayerLive({ scenario, embedScenarioInLink = false, onStore }: ScenarioPlayerProps) {
  const [store, setStore] = useState<PlayerStore | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const route = useRoute();
  const runParam = route.name === 'lesson' || route.name === 'sandbox' ? route.params.get('run') : null;
  const link = readLink(runParam, scenario);
  const [pending, setPending] = useState<SharedRun | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setStore(null);
    const initial = readLink(currentRunParam(), scenario);
    if (initial?.ok === false) setNotice(initial.message);
    import('../../redis/lua/wasmUrl')
      .then(({ luaWasmUrl }) => loadScriptEngine({ wasmUrl: luaWasmUrl }))
      .then((scripts) => {
        if (!live) return;
        const created = createPlayerStore(scenario, scripts, initial?.ok ? initial.run.config : undefined);
        setStore(created);
        onStore?.(created);
      })
      .catch((error: unknown) => live && setFailure(error instanceof Error ? error.message : String(error)));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scenario]);

  // A link opened while the page is already showing this scenario: load it, but never throw the
  // learner's own changes away without asking.
  useEffect(() => {
    if (!store || !link) return;
    if (!link.ok) {
      setNotice(link.message);
      return;
    }
    const current = store.getState().config;
    if (JSON.stringify(current) === JSON.stringify(link.run.config)) return;
    if (current.actions.length === 0) store.getState().load(link.run.config);
    else setPending(link.run);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, runParam]);

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
  return (
    <>
      {notice && (
        <div className="player-notice" role="alert">
          <p>
            The shared run in this link could not be loaded: {notice}. Showing the scenario as written instead.
          </p>
          <button type="button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {pending && (
        <div className="player-notice" role="alert">
          <p>This link holds a shared run of “{scenario.title}”. Loading it replaces the changes you made here.</p>
          <button
            type="button"
            onClick={() => {
              store.getState().load(pending.config);
              setPending(null);
            }}
          >
            Load the shared run
          </button>{' '}
          <button type="button" onClick={() => setPending(null)}>
            Keep my run
          </button>
        </div>
      )}
      <PlayerView store={store} embedScenarioInLink={embedScenarioInLink} />
    </>
  );
}

/** The `run=` value in the address right now (read once when the player starts). */
function currentRunParam(): string | null {
  const query = window.location.hash.split('?')[1] ?? '';
  return new URLSearchParams(query).get('run');
}

/** Decodes a link meant for this scenario; links for another scenario on the page are ignored. */
function readLink(param: string | null, scenario: Scenario) {
  if (!param) return null;
  const result = decodeRun(param, scenario);
  if (result.ok && result.run.scenarioId !== scenario.id) return null;
  return result;
}
