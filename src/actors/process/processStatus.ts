import type { TraceEvent } from '../../sim/traceEvents';

/** Whether a process runs, is paused (stop-the-world) or has crashed: what fault buttons and panels show. */
export type ProcessStatus = 'running' | 'paused' | 'crashed';

/**
 * A live process's status, from the flags Process keeps. The trace says the same thing through
 * the events Process records as it sets them (see processStatusesAt), so both live here.
 */
export function statusOf(process: { readonly paused: boolean; readonly crashed: boolean }): ProcessStatus {
  return process.crashed ? 'crashed' : process.paused ? 'paused' : 'running';
}

/** The status a process is left in by `event`, or null when the event does not change it. */
function statusAfter(event: TraceEvent): ProcessStatus | null {
  switch (event.kind) {
    case 'process.pause':
      return 'paused';
    case 'process.resume':
    case 'process.restart':
      return 'running';
    case 'process.crash':
      return 'crashed';
    default:
      return null;
  }
}

/** Each process's status after the first `cursor + 1` events (a process never paused or crashed is absent: running). */
export function processStatusesAt(events: readonly TraceEvent[], cursor: number): Map<string, ProcessStatus> {
  const statuses = new Map<string, ProcessStatus>();
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i]!;
    const status = statusAfter(e);
    if (status !== null) statuses.set(e.actor, status);
  }
  return statuses;
}
