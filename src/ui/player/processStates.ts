import type { TraceEvent } from '../../sim/traceEvents';

export type ProcessStatus = 'running' | 'paused' | 'crashed';

/** Each process's status after the first `cursor + 1` events. */
export function processStatesAt(events: readonly TraceEvent[], cursor: number): Map<string, ProcessStatus> {
  const states = new Map<string, ProcessStatus>();
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'process.pause') states.set(e.actor, 'paused');
    else if (e.kind === 'process.resume' || e.kind === 'process.restart') states.set(e.actor, 'running');
    else if (e.kind === 'process.crash') states.set(e.actor, 'crashed');
  }
  return states;
}
