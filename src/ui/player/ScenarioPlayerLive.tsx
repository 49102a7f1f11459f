import { useEffect, useRef, useState } from 'react';
import type { Scenario } from '../../scenario/schema/schema';
import { useRoute } from '../routing/useRoute';
import { pageSimulator } from '../worker/playerSimulator';
import { settledFirstRun, withFirstRun } from './firstRuns';
import { createPlayerStore, type PlayerStore } from './playerStore';
import { defaultRunConfig, type ComputedRun, type RunConfig } from './runModel';
import { SharedChangesBanner } from './SharedChangesBanner';
import { PlayerView } from './PlayerView';
import type { DecodeResult, SharedRun } from './shareLink';
import { whenWatched } from './watched';
import './player.css';

export interface ScenarioPlayerProps {
  scenario: Scenario;
  /** Share links carry the scenario itself (the sandbox). */
  embedScenarioInLink?: boolean;
  /** Hands the host the player's store once it exists (the sandbox exports its actions). */
  onStore?: (store: PlayerStore) => void;
  /** Called once, when the learner first plays or steps the run to its end or to a broken invariant. */
  onWatched?: () => void;
  /** The run to show first (a counterexample the workbench's Break it loaded), unless the address holds a share link. */
  initialRun?: RunConfig;
  /**
   * The scenario's default run as the build computed it (a lesson's first player, see
   * firstRuns.ts), shown without waiting for the worker; null when the build shipped none.
   */
  firstRun?: Promise<ComputedRun | null>;
  /** The player is on screen as it mounts (a lesson's, see ScenarioPlayer): it draws at once. */
  inSight?: boolean;
}

/**
 * A live simulation embedded in a lesson. Its runs are computed in the page's simulation worker
 * (which loads the Lua VM), so the page never waits on them; the learner gets the controls as
 * soon as the first run arrives. A `run=` share link in the address restores a run of this
 * scenario exactly, at the playhead time it was shared at (`t=`), and brings the player into view.
 */
export function ScenarioPlayerLive({
  scenario,
  embedScenarioInLink = false,
  onStore,
  onWatched,
  initialRun,
  firstRun,
  inSight = false,
}: ScenarioPlayerProps) {
  // A lesson's default run, shipped and already here, needs nothing else: the store exists from
  // the first render, so the timeline draws in the commit that mounts the player rather than a
  // frame later (an effect would run only after the browser had painted a placeholder).
  const [store, setStore] = useState<PlayerStore | null>(() =>
    currentParam('run') === null && !initialRun ? shippedStore(scenario, firstRun) : null,
  );
  const [fromLink, setFromLink] = useState(false);
  const route = useRoute();
  const runParam = route.name === 'lesson' || route.name === 'sandbox' ? route.params.get('run') : null;
  const [pending, setPending] = useState<SharedRun | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    // Made in the first render (shippedStore) for this very scenario: the host only needs to hear of it.
    if (store?.getState().scenario === scenario) {
      onStore?.(store);
      return;
    }
    let live = true;
    const start = (initial: DecodeResult | null) => {
      if (!live) return;
      if (initial?.ok === false) setNotice(initial.message);
      const atMs = initial?.ok ? sharedTimeMs() : undefined;
      const simulator = simulatorFor(scenario, firstRun);
      // The default run, shipped by the build and already here: shown from the first frame.
      const shown = firstRun && !initial?.ok && !initialRun ? settledFirstRun(firstRun) : undefined;
      const created = createPlayerStore(
        scenario,
        simulator,
        initial?.ok ? { ...initial.run.config, ...(atMs === undefined ? {} : { atMs }) } : initialRun,
        shown ?? undefined,
      );
      setFromLink(initial?.ok === true);
      setStore(created);
      onStore?.(created);
    };
    // Without a link the first run is asked for at once; with one, once the link is read.
    const param = currentParam('run');
    if (param === null) start(null);
    else void readLink(param, scenario).then(start);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scenario]);

  // The host may pass a new callback on every render; the subscription follows the latest one.
  const watched = useRef(onWatched);
  useEffect(() => {
    watched.current = onWatched;
  }, [onWatched]);
  useEffect(() => (store ? whenWatched(store, () => watched.current?.()) : undefined), [store]);

  // A link opened while the page is already showing this scenario: load it, but never throw the
  // learner's own changes away without asking.
  useEffect(() => {
    if (!store || !runParam) return;
    let live = true;
    void readLink(runParam, scenario).then((link) => {
      if (!live || !link) return;
      if (!link.ok) {
        setNotice(link.message);
        return;
      }
      const current = store.getState().config;
      if (JSON.stringify(current) === JSON.stringify(link.run.config)) return;
      if (current.actions.length === 0) store.getState().load(link.run.config, sharedTimeMs());
      else setPending(link.run);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, runParam]);

  if (!store) {
    return (
      <section className="player player-placeholder" aria-label={`Simulation: ${scenario.title}`} aria-busy="true">
        <p className="player-loading">Loading the simulator…</p>
      </section>
    );
  }
  return (
    <>
      {notice && (
        <div className="player-notice" role="alert">
          <p>The shared run in this link could not be loaded: {notice}. Showing the scenario as written instead.</p>
          <button type="button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {fromLink && <SharedChangesBanner store={store} config={store.getState().config} />}
      {pending && (
        <div className="player-notice" role="alert">
          <p>This link holds a shared run of “{scenario.title}”. Loading it replaces the changes you made here.</p>
          <button
            type="button"
            onClick={() => {
              store.getState().load(pending.config, sharedTimeMs());
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
      <PlayerView
        store={store}
        embedScenarioInLink={embedScenarioInLink}
        bringIntoView={fromLink}
        drawWhenNear={route.name === 'lesson'}
        startsNear={inSight}
      />
    </>
  );
}

/** A store showing `scenario`'s shipped default run, if that run has already arrived. */
function shippedStore(scenario: Scenario, firstRun: Promise<ComputedRun | null> | undefined): PlayerStore | null {
  const shown = firstRun ? settledFirstRun(firstRun) : undefined;
  if (!firstRun || !shown) return null;
  return createPlayerStore(scenario, simulatorFor(scenario, firstRun), undefined, shown);
}

/** The page's simulator for this player, answering the default run from the build's copy when one was shipped. */
function simulatorFor(scenario: Scenario, firstRun: Promise<ComputedRun | null> | undefined) {
  return firstRun
    ? withFirstRun(pageSimulator(scenario), firstRun, defaultRunConfig(scenario))
    : pageSimulator(scenario);
}

/** A parameter of the address's fragment query right now (read when the player starts). */
function currentParam(name: string): string | null {
  const [path, query = ''] = window.location.hash.split('?');
  // Only a lesson's or the sandbox's link is a player's: the workbench reads its own `run` (a
  // whole scenario), and its player must not take it for a run of its own and complain twice.
  if (!/^#\/(lesson\/|sandbox)/.test(path ?? '')) return null;
  return new URLSearchParams(query).get(name);
}

/** The playhead time a share link was made at (`t=`, in ms), if it has a sensible one. */
function sharedTimeMs(): number | undefined {
  const t = Number(currentParam('t') ?? NaN);
  return Number.isFinite(t) && t >= 0 ? t : undefined;
}

/**
 * Decodes a link meant for this scenario; links for another scenario on the page are ignored.
 * The decoder is loaded here, on first use: it holds the scenario and action schemas, whose
 * construction would otherwise cost every lesson's main thread a long task on the way to its
 * first run, link or not.
 */
async function readLink(param: string, scenario: Scenario): Promise<DecodeResult | null> {
  let decodeRun: typeof import('./shareLink').decodeRun;
  try {
    ({ decodeRun } = await import('./shareLink'));
  } catch {
    return {
      ok: false,
      problem: 'damaged',
      message: 'the link reader could not be loaded (check the connection and reload the page)',
    };
  }
  const result = decodeRun(param, scenario);
  if (result.ok && result.run.scenarioId !== scenario.id) return null;
  return result;
}
