import type { Verdict } from '../check/verdict';
import type { TraceEvent } from '../sim/traceEvents';
import { formatMs } from '../sim/time';
import { intervalSteps } from './intervals';
import { leaseKeysByLane } from './keyRows';
import { messageSteps } from './messages';
import type { Lane, PointMark, StateChange, TimelineModel, WriteMark } from './modelTypes';
import { EVENTS_PER_STEP, runSteps, type Steps } from '../sim/steps';
import { isStageEvent, sentinelStageMarks } from './sentinelStages';
import { buildViolations } from './violations';
import { groupStateAt } from './laneGroups';

export type * from './modelTypes';

/** Actors that never get a lane: the world records run and action events, the network its partitions (drawn on the lanes they cut). */
const NON_LANE_ACTORS = new Set(['world', 'network']);

/**
 * Computes everything the timeline draws from a trace and its verdicts. Pure: no DOM, no D3.
 * @example const model = buildTimelineModel(trace.toArray(), verdicts);
 */
export function buildTimelineModel(events: readonly TraceEvent[], verdicts: readonly Verdict[]): TimelineModel {
  return runSteps(timelineModelSteps(events, verdicts));
}

/**
 * buildTimelineModel, pausable every EVENTS_PER_STEP events: a run cut at 200,000 events takes
 * over half a second to read, which the page spreads over many short tasks (useTimelineModel).
 */
export function* timelineModelSteps(events: readonly TraceEvent[], verdicts: readonly Verdict[]): Steps<TimelineModel> {
  const eventById = new Map<number, TraceEvent>();
  let seen = 0;
  for (const e of events) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    eventById.set(e.id, e);
  }
  const { lanes, endMs } = yield* laneSteps(events);
  const laneById = new Map(lanes.map((l) => [l.id, l]));
  const intervals = yield* intervalSteps(events, endMs);
  const { writes, points, states } = yield* markSteps(events, (id) => laneById.get(id)?.label ?? id);
  const messages = yield* messageSteps(events, endMs);
  return {
    lanes,
    laneById,
    intervals,
    writes,
    messages,
    points,
    violations: buildViolations(verdicts, eventById, intervals, lanes),
    states,
    endMs,
    eventById,
    leaseKeys: leaseKeysByLane(intervals),
    lockServer: lockServerName(lanes),
    groups: [],
  };
}

/** Redis when any lane is a Redis node; otherwise the one lock service (etcd, a database...). */
function lockServerName(lanes: readonly Lane[]): string {
  if (lanes.some((l) => l.role === 'redis')) return 'Redis';
  const services = lanes.filter((l) => l.role === 'service');
  return services.length === 1 ? services[0]!.label : 'the lock service';
}

/**
 * Lanes in run.start's order, then any other actor in the order it first appears; and when the
 * run ended (the last event's time; never below 1 ms), read in the same pass.
 */
function* laneSteps(events: readonly TraceEvent[]): Steps<{ lanes: Lane[]; endMs: number }> {
  const lanes: Lane[] = [];
  const seen = new Set<string>();
  const add = (id: string, label: string, role: Lane['role']) => {
    if (seen.has(id) || NON_LANE_ACTORS.has(id)) return;
    seen.add(id);
    lanes.push({ id, label, role, index: lanes.length });
  };
  let count = 0;
  for (const e of events) {
    if (++count % EVENTS_PER_STEP === 0) yield;
    if (e.kind === 'run.start') for (const a of e.data.actors) add(a.id, a.label, a.role);
  }
  let endMs = 1;
  // Nearly every actor is in run.start: test before calling, as this loop sees every event.
  for (const e of events) {
    if (++count % EVENTS_PER_STEP === 0) yield;
    if (e.at > endMs) endMs = e.at;
    if (!seen.has(e.actor)) add(e.actor, e.actor, 'unknown');
    if (e.kind === 'net.send' && !seen.has(e.data.to)) add(e.data.to, e.data.to, 'unknown');
  }
  return { lanes, endMs };
}

/** Writes, small point marks and per-lane state histories. */
function* markSteps(
  events: readonly TraceEvent[],
  labelOf: (id: string) => string,
): Steps<{ writes: WriteMark[]; points: PointMark[]; states: Map<string, StateChange[]> }> {
  const writes: WriteMark[] = [];
  const points: PointMark[] = [];
  const states = new Map<string, StateChange[]>();
  // Sentinel's steps are drawn by burst, once all of them are known.
  const stageEvents: LooseEvent[] = [];
  let seen = 0;
  for (const e of events) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    if (isStageEvent(e.kind)) stageEvents.push(e as unknown as LooseEvent);
    switch (e.kind) {
      case 'resource.write':
        writes.push({
          id: e.id,
          lane: e.actor,
          at: e.at,
          owner: e.data.from,
          token: e.data.token,
          accepted: e.data.accepted,
          reason: e.data.reason,
          value: e.data.value,
        });
        break;
      case 'actor.state': {
        const list = states.get(e.actor) ?? [];
        list.push({ id: e.id, at: e.at, state: e.data.state });
        states.set(e.actor, list);
        points.push({ id: e.id, kind: 'state', lane: e.actor, at: e.at, label: e.data.state });
        break;
      }
      case 'clock.jump':
        points.push({
          id: e.id,
          kind: 'clockJump',
          lane: e.actor,
          at: e.at,
          label: `clock ${e.data.byMs >= 0 ? '+' : '−'}${formatMs(Math.abs(e.data.byMs))}`,
        });
        break;
      case 'lease.ended':
        if (e.data.reason === 'expired')
          points.push({ id: e.id, kind: 'expiry', lane: e.actor, at: e.at, label: `${e.data.owner}'s lease expired` });
        break;
      case 'process.restart':
        points.push({ id: e.id, kind: 'restart', lane: e.actor, at: e.at, label: 'restarted' });
        break;
      case 'request.timeout':
        points.push({ id: e.id, kind: 'timeout', lane: e.actor, at: e.at, label: 'timed out' });
        break;
      case 'request.late':
        points.push({ id: e.id, kind: 'late', lane: e.actor, at: e.at, label: 'late answer' });
        break;
      default: {
        const extra = topologyPoint(e as unknown as LooseEvent, labelOf);
        if (extra) points.push(extra);
        break;
      }
    }
  }
  return { writes, points: mergedById(points, sentinelStageMarks(stageEvents)), states };
}

/** Two lists of marks, each in id order, as one in id order (a merge: a sort of a herd's marks would be one long step). */
function mergedById(a: readonly PointMark[], b: readonly PointMark[]): PointMark[] {
  if (b.length === 0) return a as PointMark[];
  const out: PointMark[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length)
    out.push(j >= b.length || (i < a.length && a[i]!.id <= b[j]!.id) ? a[i++]! : b[j++]!);
  return out;
}

interface LooseEvent {
  id: number;
  at: number;
  kind: string;
  actor: string;
  data: Record<string, unknown>;
}

/**
 * Replication events as point marks (Sentinel's are drawn by burst: `sentinelStages.ts`). They come from the Redis topology,
 * whose trace kinds are read loosely here so the timeline draws them whichever of them a run has.
 */
function topologyPoint(e: LooseEvent, labelOf: (id: string) => string): PointMark | null {
  const d = e.data;
  const base = { id: e.id, lane: e.actor, at: e.at };
  switch (e.kind) {
    case 'redis.replicate':
      return { ...base, kind: 'replicate', label: `applied up to offset ${String(d.offset)}` };
    case 'redis.sync':
      return { ...base, kind: 'sync', label: 'full sync' };
    case 'redis.role':
      return { ...base, kind: 'role', label: d.role === 'primary' ? 'primary' : `replica of ${labelOf(String(d.of))}` };
    default:
      return null;
  }
}

/**
 * Machine states said otherwise on a lane: a client that stopped trying for the lock (no retry
 * left, or told to skip when busy) did what it was told, and "failed" reads as a fault.
 */
const STATE_WORDS: Readonly<Record<string, string>> = { failed: 'gave up' };

/**
 * What each lane's label should say at `timeMs`: the actor's machine state (or, for a Redis
 * node, who holds its locks), plus "paused"/"crashed" while that is so. Events after
 * `uptoId` are treated as not yet happened, for several events that share one millisecond.
 */
export function laneStateAt(model: TimelineModel, timeMs: number, uptoId = Infinity): Map<string, string> {
  const out = new Map<string, string>();
  // A client folded into a summary lane (laneGroups.ts) keeps its name.
  const folded = new Map(model.groups.flatMap((g) => g.members.map((m) => [m.id, m.label] as const)));
  const nameOf = (id: string) => model.laneById.get(id)?.label ?? folded.get(id) ?? id;
  const happened = (id: number, at: number) => at <= timeMs && id <= uptoId;
  const activeAt = (startId: number, startMs: number, endId: number | null, endMs: number) =>
    happened(startId, startMs) && (endId === null || !happened(endId, endMs));
  for (const lane of model.lanes) {
    const group = model.groups.find((g) => g.id === lane.id);
    if (group) {
      out.set(lane.id, groupStateAt(model, group, timeMs, happened));
      continue;
    }
    let label = '';
    for (const s of model.states.get(lane.id) ?? []) if (happened(s.id, s.at)) label = STATE_WORDS[s.state] ?? s.state;
    if (label === '' && (lane.role === 'redis' || lane.role === 'service')) {
      let role = '';
      for (const p of model.points) if (p.kind === 'role' && p.lane === lane.id && happened(p.id, p.at)) role = p.label;
      const holders = model.intervals
        .filter((i) => i.kind === 'lease' && i.lane === lane.id && activeAt(i.startId, i.startMs, i.endId, i.endMs))
        .map((i) => `${i.lockKey} → ${nameOf(i.owner ?? '')}`);
      label = `${role ? `${role} · ` : ''}${holders.length > 0 ? holders.join(', ') : 'no lock held'}`;
    }
    for (const i of model.intervals) {
      if (i.lane !== lane.id || (i.kind !== 'pause' && i.kind !== 'crash' && i.kind !== 'partition')) continue;
      const word = i.kind === 'pause' ? 'paused' : i.kind === 'crash' ? 'crashed' : 'cut off';
      // A crashed client's machine state is "crashed" already: the word is said once.
      if (activeAt(i.startId, i.startMs, i.endId, i.endMs) && !label.split(' · ').includes(word))
        label = label ? `${label} · ${word}` : word;
    }
    out.set(lane.id, label);
  }
  return out;
}
