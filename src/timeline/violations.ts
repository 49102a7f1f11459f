import type { Verdict } from '../check/verdict';
import type { TraceEvent } from '../sim/traceEvents';
import type { Interval, Lane, ViolationHighlight } from './modelTypes';

/**
 * Turns each broken verdict into something to point at: the stretch where the involved clients'
 * beliefs overlapped (two holders of one lock), the stretch on the marker's lane from the first
 * proving event to the break, and a marker at the moment it broke.
 */
export function buildViolations(
  verdicts: readonly Verdict[],
  eventById: ReadonlyMap<number, TraceEvent>,
  intervals: readonly Interval[],
  lanes: readonly Lane[],
): ViolationHighlight[] {
  const out: ViolationHighlight[] = [];
  for (const verdict of verdicts) {
    if (verdict.holds || verdict.atMs === null) continue;
    const atMs = verdict.atMs;
    const proof = verdict.eventIds.map((id) => eventById.get(id)).filter((e): e is TraceEvent => e !== undefined);
    const markerLane = proof.at(-1)?.actor ?? lanes[0]?.id ?? 'world';
    const regions: ViolationHighlight['regions'] = [];

    // A stretch on one lane only makes sense when all the proof happened there (two writes
    // at one resource); proof spread over several lanes is shown by the belief overlap below.
    const firstMs = Math.min(atMs, ...proof.map((e) => e.at));
    const oneLane = proof.every((e) => e.actor === markerLane);
    if (oneLane && firstMs < atMs) regions.push({ lane: markerLane, startMs: firstMs, endMs: atMs });

    // The belief each involved client held when it acted; where they overlap, both held "the" lock.
    const beliefs = proof
      .map((e) => beliefAround(intervals, clientOf(e), e.at))
      .filter((b): b is Interval => b !== undefined);
    const distinct = [...new Map(beliefs.map((b) => [b.key, b])).values()];
    if (distinct.length >= 2) {
      const startMs = Math.max(...distinct.map((b) => b.startMs));
      const endMs = Math.min(...distinct.map((b) => b.endMs));
      if (startMs < endMs) for (const b of distinct) regions.push({ lane: b.lane, startMs, endMs });
    }

    out.push({
      key: `v:${verdict.invariant}`,
      invariant: verdict.invariant,
      atMs,
      explanation: verdict.explanation,
      markerLane,
      eventIds: [...verdict.eventIds],
      regions,
    });
  }
  return out;
}

/** The client an event speaks for: the writer of a resource write, else the actor itself. */
function clientOf(e: TraceEvent): string {
  return e.kind === 'resource.write' ? e.data.from : e.actor;
}

/** The belief interval on `lane` covering `atMs`, or else the latest one that began before it. */
function beliefAround(intervals: readonly Interval[], lane: string, atMs: number): Interval | undefined {
  let best: Interval | undefined;
  for (const i of intervals) {
    if (i.kind !== 'belief' || i.lane !== lane || i.startMs > atMs) continue;
    if (!best || i.startMs >= best.startMs) best = i;
  }
  return best;
}
