import { Prng } from '../sim/prng';
import { ddmin } from './shrink';
import type { Verdict } from './verdict';

/** The kinds of fault the explorer injects. */
export const FAULT_KINDS = ['pause', 'crash', 'partition', 'clock-jump'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One fault, in the shape of a learner action (what the player and `npm run sim --actions` replay). */
export type FaultAction =
  | { at: number; do: 'pause'; target: string; forMs: number }
  | { at: number; do: 'crash'; target: string }
  | { at: number; do: 'restart'; target: string }
  | { at: number; do: 'partition'; groups: string[][] }
  | { at: number; do: 'heal' }
  | { at: number; do: 'clock-jump'; target: string; byMs: number };

export interface ExploreOptions {
  /** The invariant to break, e.g. 'single-writer'. */
  invariant: string;
  /** Runs (seed, actions) to the end and returns its verdicts. */
  run: (seed: number, actions: readonly FaultAction[]) => readonly Verdict[];
  /** The processes faults may hit (clients, Redis nodes, lock services). */
  targets: readonly string[];
  /** Faults land in [0, windowMs): where the scenario's action is. */
  windowMs: number;
  /** The scenario's own seed: tried first, and preferred when shrinking. */
  baseSeed: number;
  /** Seeds this explorer's own choices: the same explorer seed finds the same answer. */
  explorerSeed?: number;
  /** How many random schedules to try before giving up. */
  runs?: number;
  /** At most this many faults per schedule (a crash or partition brings its restart or heal along). */
  maxFaults?: number;
  kinds?: readonly FaultKind[];
}

export interface ExploreResult {
  found: boolean;
  /** The run's seed and the minimal faults that break the invariant (empty: it breaks as written). */
  seed: number;
  actions: FaultAction[];
  /** Runs made, searching and shrinking. */
  runs: number;
  /** The verdict of the minimal run, naming the events that prove it. */
  verdict: Verdict | null;
}

/**
 * The schedule explorer: tries the scenario as written, then many random seeds and fault
 * schedules (pauses, crashes, partitions, clock jumps at random moments, all drawn from one
 * seeded PRNG), until one breaks `invariant`. It then shrinks that run: delta debugging drops
 * every fault it can, the scenario's own seed replaces the random one when it still fails, and
 * pause lengths, clock jumps and times are made rounder. What is left is a short list of
 * learner actions that still breaks the invariant ("find the bug for me").
 */
export function explore(options: ExploreOptions): ExploreResult {
  const random = Prng.fromSeed(options.explorerSeed ?? 1);
  let runs = 0;
  const verdictOf = (seed: number, actions: readonly FaultAction[]) => {
    runs++;
    return options.run(seed, actions).find((v) => v.invariant === options.invariant) ?? null;
  };
  const breaks = (seed: number, actions: readonly FaultAction[]) => verdictOf(seed, actions)?.holds === false;

  let found: { seed: number; actions: FaultAction[] } | null = breaks(options.baseSeed, []) ? { seed: options.baseSeed, actions: [] } : null;
  for (let i = 0; !found && i < (options.runs ?? 200); i++) {
    // Every other run keeps the scenario's seed, so the faults alone are what varies.
    const seed = i % 2 === 0 ? options.baseSeed : random.int(0, 2 ** 31 - 1);
    const actions = schedule(random, options);
    if (breaks(seed, actions)) found = { seed, actions };
  }
  if (!found) return { found: false, seed: options.baseSeed, actions: [], runs, verdict: null };

  let { seed, actions } = found;
  if (seed !== options.baseSeed && breaks(options.baseSeed, actions)) seed = options.baseSeed;
  actions = ddmin(actions, (xs) => breaks(seed, xs));
  actions = simplify(actions, (xs) => breaks(seed, xs));
  return { found: true, seed, actions, runs: runs + 1, verdict: verdictOf(seed, actions) };
}

/** A random schedule of 1..maxFaults faults, in time order. */
function schedule(random: Prng, options: ExploreOptions): FaultAction[] {
  const kinds = options.kinds ?? FAULT_KINDS;
  const window = Math.max(1000, options.windowMs);
  const moment = () => roundTo(random.int(0, window - 1), 100);
  const pick = <T>(xs: readonly T[]): T => xs[random.int(0, xs.length - 1)]!;
  const out: FaultAction[] = [];
  const count = random.int(1, options.maxFaults ?? 3);
  for (let i = 0; i < count; i++) {
    const at = moment();
    const target = pick(options.targets);
    const later = at + roundTo(random.int(100, window), 100);
    switch (pick(kinds)) {
      case 'pause':
        out.push({ at, do: 'pause', target, forMs: roundTo(random.int(500, 2 * window), 500) });
        break;
      case 'crash':
        out.push({ at, do: 'crash', target }, { at: later, do: 'restart', target });
        break;
      case 'partition':
        out.push({ at, do: 'partition', groups: [[target], options.targets.filter((t) => t !== target)] }, { at: later, do: 'heal' });
        break;
      case 'clock-jump':
        out.push({ at, do: 'clock-jump', target, byMs: (random.chance(0.5) ? 1 : -1) * roundTo(random.int(1000, 30_000), 1000) });
        break;
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * Makes each remaining fault rounder while the run still fails: shorter pauses and jumps
 * (halving), then whole-second times. Each change is kept only if the invariant still breaks.
 */
function simplify(actions: FaultAction[], fails: (xs: readonly FaultAction[]) => boolean): FaultAction[] {
  let current = actions;
  const attempt = (i: number, changed: FaultAction) => {
    const next = current.map((a, j) => (j === i ? changed : a)).sort((a, b) => a.at - b.at);
    if (!fails(next)) return false;
    current = next;
    return true;
  };
  for (let i = 0; i < current.length; i++) {
    for (let guard = 0; guard < 16; guard++) {
      const a = current[i]!;
      if (a.do === 'pause' && a.forMs > 500 && attempt(i, { ...a, forMs: roundTo(a.forMs / 2, 500) })) continue;
      if (a.do === 'clock-jump' && Math.abs(a.byMs) > 1000 && attempt(i, { ...a, byMs: roundTo(a.byMs / 2, 1000) })) continue;
      break;
    }
    const a = current[i]!;
    if (a.at % 1000 !== 0) attempt(i, { ...a, at: roundTo(a.at, 1000) });
  }
  return current;
}

function roundTo(ms: number, step: number): number {
  return Math.round(ms / step) * step;
}
