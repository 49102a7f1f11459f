import { EXPLORE_MAX_EVENTS, type ExploreResult } from '../../check/explorer';
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
  const faults = kinds.length ? `${kinds.map((k) => KIND_NAMES[k]).join(', ')}, up to ${maxFaults} fault${maxFaults === 1 ? '' : 's'} a run` : 'no faults (none apply to this scenario)';
  const others = seeds - 1;
  const seedText = others > 0 ? `the scenario's seed and ${others.toLocaleString('en')} other${others === 1 ? '' : 's'}` : "the scenario's seed";
  const cutText = cut === 0 ? '' : ` ${cut === runs ? (runs === 1 ? 'That run was' : `All ${runs.toLocaleString('en')} runs were`) : `${cut.toLocaleString('en')} of them were`} cut short by a budget (${EXPLORE_MAX_EVENTS.toLocaleString('en')} events, or the scripts' instruction limit) and judged only on what they reached: a break after that point would not be seen.`;
  return `No run broke ${name} in ${runs.toLocaleString('en')} run${runs === 1 ? '' : 's'}.${cutText} Searched: ${faults}; ${seedText}. A search can miss a bug: a bigger budget or another invariant may still find one.`;
}
