import { EXPLORE_MAX_EVENTS, type ExploreResult } from '../../check/explorer';
import type { ExhaustiveBounds } from '../../check/exhaustive';
import type { ExhaustiveResult } from '../../check/exhaustiveSearch';
import type { FaultKind } from '../../check/faults';
import { formatMs } from '../../sim/time';

/** What Break it says when a search ends: what it found, or what it searched without finding. */

const KIND_NAMES: Record<FaultKind, string> = {
  pause: 'pauses',
  crash: 'crashes',
  restart: 'restarts',
  partition: 'partitions',
  'clock-jump': 'clock jumps',
  failover: 'failovers',
  'message-loss': 'lost messages',
};

/** "Found in 38 runs: 1 fault breaks single writer at 3.5 s (seed 7)." */
export function foundText(result: ExploreResult, name: string): string {
  const runs = `${result.summary.runs.toLocaleString('en')} run${result.summary.runs === 1 ? '' : 's'}`;
  const when = result.verdict?.atMs == null ? '' : ` at ${formatMs(result.verdict.atMs)}`;
  const n = result.faults.length;
  if (n === 0) return `Found in ${runs}: seed ${result.seed} alone breaks ${name}${when}, with no fault at all.`;
  return `Found in ${runs}: ${n} fault${n === 1 ? ' breaks' : 's break'} ${name}${when} (seed ${result.seed}).`;
}

/** What was searched, said plainly: a search that found nothing is evidence, not proof. */
export function notFoundText(result: ExploreResult, name: string): string {
  const { runs, kinds, seeds, maxFaults, cut } = result.summary;
  const faults = kinds.length
    ? `${kinds.map((k) => KIND_NAMES[k]).join(', ')}, up to ${maxFaults} fault${maxFaults === 1 ? '' : 's'} a run`
    : 'no faults (none apply to this scenario)';
  const others = seeds - 1;
  const seedText =
    others > 0
      ? `the scenario's seed and ${others.toLocaleString('en')} other${others === 1 ? '' : 's'}`
      : "the scenario's seed";
  const cutText =
    cut === 0
      ? ''
      : ` ${cut === runs ? (runs === 1 ? 'That run was' : `All ${runs.toLocaleString('en')} runs were`) : `${cut.toLocaleString('en')} of them were`} cut short by a budget (${EXPLORE_MAX_EVENTS.toLocaleString('en')} events, or the scripts' instruction limit) and judged only on what they reached: a break after that point would not be seen.`;
  return `No run broke ${name} in ${runs.toLocaleString('en')} run${runs === 1 ? '' : 's'}.${cutText} Searched: ${faults}; ${seedText}. A search can miss a bug: a bigger budget or another invariant may still find one.`;
}

/** A span of lengths in words: "0.5–20 s", or one length alone. */
function span(lengthsMs: readonly number[]): string {
  const sorted = [...lengthsMs].map(Math.abs).sort((a, b) => a - b);
  const [low, high] = [sorted[0] ?? 0, sorted[sorted.length - 1] ?? 0];
  if (low === high) return formatMs(low);
  return high < 1000 ? `${low}–${high} ms` : `${low / 1000}–${high / 1000} s`;
}

/** Each kind an exhaustive search tried, with the lengths it tried. */
function kindsInWords(bounds: ExhaustiveBounds): string {
  const words: Record<FaultKind, string> = {
    pause: `pauses of ${span(bounds.pauseMs)}`,
    crash: `crashes with a restart after ${span(bounds.outageMs)}`,
    restart: 'quick restarts',
    partition: `partitions of ${span(bounds.outageMs)}`,
    'clock-jump': `clock jumps of ${bounds.jumpMs.some((ms) => ms < 0) && bounds.jumpMs.some((ms) => ms > 0) ? '±' : ''}${span(bounds.jumpMs)}`,
    failover: 'failovers',
    'message-loss': `lost messages for ${span(bounds.outageMs)}`,
  };
  return bounds.kinds.map((k) => words[k]).join(', ');
}

/** The bounds as a sentence's middle: "up to 2 faults (pauses of 0.5–20 s, ...) at 100 ms steps over the first 6 s, on A, B and r1". */
export function boundsText(result: Pick<ExhaustiveResult, 'bounds' | 'targets'>): string {
  const { bounds, targets } = result;
  const k = bounds.maxFaults;
  const names =
    targets.length > 1
      ? `${targets.slice(0, -1).join(', ')} and ${targets[targets.length - 1]}`
      : (targets[0] ?? 'nothing');
  return `up to ${k} fault${k === 1 ? '' : 's'} (${kindsInWords(bounds)}) at ${formatMs(bounds.gridMs)} steps over the first ${formatMs(bounds.horizonMs)}, on ${names}`;
}

const count = (n: number) => n.toLocaleString('en');

/**
 * What an exhaustive search says at its end: the break with the fewest faults, the bounded claim
 * (never "safe": no break exists within these bounds), or how far a budget let it get.
 */
export function exhaustiveText(result: ExhaustiveResult, name: string): string {
  const { done, total, ran, byQuiet, cut } = result.progress;
  if (result.found) {
    const when = result.verdict?.atMs == null ? '' : ` at ${formatMs(result.verdict.atMs)}`;
    const n = result.faults.length;
    if (n === 0) return `The scenario breaks ${name}${when} as written, with no fault at all.`;
    return `Found after ${count(done)} of ${count(total)} schedules: ${n} fault${n === 1 ? ' breaks' : 's break'} ${name}${when}. No schedule with fewer faults breaks it: every one was tried.`;
  }
  const covered = `${count(ran)} run${byQuiet > 0 ? `, ${count(byQuiet)} covered because the fault hit a process with nothing left to do` : ''}`;
  const cutText =
    cut === 0
      ? ''
      : ` ${count(cut)} run${cut === 1 ? ' was' : 's were'} cut short by a budget (${EXPLORE_MAX_EVENTS.toLocaleString('en')} events, or the scripts' instruction limit) and judged only on what they reached.`;
  if (!result.complete)
    return `No break of ${name} in the first ${count(done)} of ${count(total)} schedules of ${boundsText(result)} (${covered}). The budget ran out: the other ${count(total - done)} were not tried, so this is no claim about them.${cutText}`;
  return `No break of ${name} exists with ${boundsText(result)}: ${count(total)} schedules, ${covered}.${cutText} Other faults, lengths or times than these were not tried.`;
}
