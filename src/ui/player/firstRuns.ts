import { loadFirstRuns } from 'virtual:lockstep-first-runs';
import type { FirstRuns } from '../build/firstRuns';
import type { PlayerSimulator } from '../worker/playerSimulator';
import type { ComputedRun, RunConfig } from './runModel';

// One request per lesson; a failed one (offline) counts as "no runs": the worker computes them.
const requested = new Map<string, Promise<FirstRuns>>();

/**
 * Starts fetching a lesson's precomputed first runs (src/ui/build/firstRunsPlugin.ts), unless
 * they are on their way. main.tsx asks as soon as the lesson's body has arrived.
 */
export function requestFirstRuns(slug: string): Promise<FirstRuns> {
  let runs = requested.get(slug);
  if (!runs) {
    runs = loadFirstRuns(slug).catch(() => ({}));
    requested.set(slug, runs);
  }
  return runs;
}

/** A player's precomputed run (`key` as in firstRuns.ts), or null when the build shipped none for it. */
export function firstRunOf(slug: string, key: string): Promise<ComputedRun | null> {
  return requestFirstRuns(slug).then((runs) => (Object.hasOwn(runs, key) ? runs[key]! : null));
}

/**
 * A player's simulator that answers its first run from the build's copy when that run is the
 * one shipped (`config`: the scenario as written; a share link or a counterexample asks for
 * another). The simulator is deterministic, so the copy is the run the worker would compute.
 * Every later run, and every inspection, is the worker's.
 */
export function withFirstRun(simulator: PlayerSimulator, firstRun: Promise<ComputedRun | null>, config: RunConfig): PlayerSimulator {
  let first = true;
  return {
    run(asked) {
      const shipped = first && sameRun(asked, config);
      first = false;
      return shipped ? firstRun.then((run) => (run ? { ok: true as const, value: run } : simulator.run(asked))) : simulator.run(asked);
    },
    inspect: (...args) => simulator.inspect(...args),
  };
}

function sameRun(a: RunConfig, b: RunConfig): boolean {
  return a.seed === b.seed && a.fencing === b.fencing && JSON.stringify(a.actions) === JSON.stringify(b.actions);
}
