import { loadFirstRuns, loadSandboxFirstRuns } from 'virtual:lockstep-first-runs';
import type { ShippedRuns } from '../build/firstRuns';
import type { PlayerSimulator } from '../worker/playerSimulator';
import { unpackRun } from './packedRun';
import type { ComputedRun, RunConfig } from './runModel';

// One request per lesson; a failed one (offline) counts as "no runs": the worker computes them.
const requested = new Map<string, Promise<ShippedRuns>>();

/**
 * Starts fetching a lesson's precomputed first runs (src/ui/build/firstRunsPlugin.ts), unless
 * they are on their way. main.tsx asks as soon as the lesson's body has arrived.
 */
export function requestFirstRuns(slug: string): Promise<ShippedRuns> {
  let runs = requested.get(slug);
  if (!runs) {
    runs = loadFirstRuns(slug).catch(() => ({}));
    requested.set(slug, runs);
  }
  return runs;
}

// One promise per player, so that every render of a lesson hands a player the same one, and
// what each promise settled to, so that a player mounting after its run arrived shows it at once.
const players = new Map<string, Promise<ComputedRun | null>>();
const settled = new WeakMap<Promise<ComputedRun | null>, ComputedRun | null>();

/** A player's precomputed run (`key` as in firstRuns.ts), or null when the build shipped none for it. */
export function firstRunOf(slug: string, key: string): Promise<ComputedRun | null> {
  return player(`${slug}/${key}`, () => requestFirstRuns(slug), key);
}

/** The sandbox's opening world's run (src/ui/build/firstRuns.ts), or null when the build shipped none. */
export function sandboxFirstRun(): Promise<ComputedRun | null> {
  return player('#sandbox', () => loadSandboxFirstRuns().catch(() => ({})), 'sandbox');
}

function player(id: string, load: () => Promise<ShippedRuns>, key: string): Promise<ComputedRun | null> {
  let run = players.get(id);
  if (!run) {
    // A shipped run that does not unpack counts as none shipped: the worker computes it.
    const promise = load()
      .then((runs) => (Object.hasOwn(runs, key) ? unpackRun(runs[key]!) : null))
      .catch(() => null);
    void promise.then((value) => settled.set(promise, value));
    players.set(id, (run = promise));
  }
  return run;
}

/** What `firstRunOf`'s promise settled to: the run, null (none shipped), or undefined (not there yet). */
export function settledFirstRun(firstRun: Promise<ComputedRun | null>): ComputedRun | null | undefined {
  return settled.get(firstRun);
}

/**
 * A player's simulator that answers its first run from the build's copy when that run is the
 * one shipped (`config`: the scenario as written; a share link or a counterexample asks for
 * another). The simulator is deterministic, so the copy is the run the worker would compute.
 * Every later run, and every inspection, is the worker's.
 */
export function withFirstRun(
  simulator: PlayerSimulator,
  firstRun: Promise<ComputedRun | null>,
  config: RunConfig,
): PlayerSimulator {
  let first = true;
  return {
    run(asked) {
      const shipped = first && sameRun(asked, config);
      first = false;
      return shipped
        ? firstRun.then((run) => (run ? { ok: true as const, value: run } : simulator.run(asked)))
        : simulator.run(asked);
    },
    preview: (asked) => simulator.preview(asked),
    inspect: (...args) => simulator.inspect(...args),
    read: (...args) => simulator.read(...args),
  };
}

function sameRun(a: RunConfig, b: RunConfig): boolean {
  // The learner's edits of the script count as much as the actions: a changed story is another run.
  return (
    a.seed === b.seed &&
    a.fencing === b.fencing &&
    JSON.stringify(a.actions) === JSON.stringify(b.actions) &&
    JSON.stringify(a.edits ?? []) === JSON.stringify(b.edits ?? [])
  );
}
