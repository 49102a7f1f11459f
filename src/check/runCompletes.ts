import { formatMs } from '../sim/time';
import { defineInvariant, type RunCap } from './invariant';
import { verdict, type VerdictOf } from './verdictOf';

/** The cap verdict: a run stopped by a cap says so plainly instead of hanging. */
export function checkRunCompletes(cap: RunCap | null): VerdictOf<'run-completes'> {
  return verdict(
    'run-completes',
    cap && { at: cap.atMs, ids: [cap.lastEventId], text: why(cap) },
    cap ? 1 : 0,
    'Every actor finished before the horizon.',
  );
}

function why(cap: RunCap): string {
  switch (cap.reason) {
    case 'event-cap':
      return `The run was stopped after ${cap.maxEvents} events at ${formatMs(cap.atMs)}: it looks like a runaway loop.`;
    case 'script-cap':
      return `This run was stopped: its Lua scripts ran more than ${cap.maxScriptInstructions / 1e6} million instructions in all. A script in it runs away (a loop that never ends, or a client retrying a script that is always cut); fix the script or give the client fewer retries.`;
    case 'time-cap':
      return `The run reached its horizon of ${formatMs(cap.horizonMs)} with work still pending: something never finished.`;
  }
}

/** Reads no event: how the run ended (CheckOptions.cap) is all it needs. */
export const RUN_COMPLETES = defineInvariant({
  name: 'run-completes',
  reads: [],
  appliesTo: (run) => (run.options.cap ?? null) !== null,
  check: (run) => checkRunCompletes(run.options.cap ?? null),
});
