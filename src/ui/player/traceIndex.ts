import type { TraceEvent, TraceKind } from '../../sim/traceEvents';

const byKind = new WeakMap<readonly TraceEvent[], Map<string, number[]>>();

/**
 * Indices of the events of `kind` in `events`, oldest first. Computed once per trace (a run's
 * event array never changes; a re-run makes a new one), so panels can ask "how many writes by
 * the cursor?" on every step without scanning the trace.
 */
export function indicesOfKind(events: readonly TraceEvent[], kind: TraceKind): readonly number[] {
  let kinds = byKind.get(events);
  if (!kinds) byKind.set(events, (kinds = new Map()));
  let list = kinds.get(kind);
  if (!list) {
    list = [];
    for (let i = 0; i < events.length; i++) if (events[i]!.kind === kind) list.push(i);
    kinds.set(kind, list);
  }
  return list;
}

/** How many of the sorted `indices` are at or before `cursor` (binary search). */
export function countUpTo(indices: readonly number[], cursor: number): number {
  let lo = 0;
  let hi = indices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (indices[mid]! <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
