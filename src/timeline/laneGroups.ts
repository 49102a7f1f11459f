import type { Interval, Lane, LaneGroup, MessageMark, PointMark, TimelineModel } from './modelTypes';
import { EVENTS_PER_STEP, runSteps, type Steps } from '../sim/steps';
import { leaseKeysByLane } from './keyRows';

/**
 * A herd (lesson 13: fifty clients after one lock) drawn one lane per client is 3,200 px of
 * lanes nobody can take in. Past `GROUP_FROM_CLIENTS` clients, the client lanes fold into one
 * summary lane: who believes it holds the lock (their belief bars, in their own colours), and a
 * density strip of lock attempts and refusals over time, so the contention reads at a glance.
 * Redis, resource and other lanes stay as they are. The host can unfold the group again.
 */

/** Fewer clients than this keep a lane each: a lane each is still readable. */
export const GROUP_FROM_CLIENTS = 12;

/** How many slices of the run the density strip counts in. */
const DENSITY_BINS = 160;

/** The id of the summary lane (no actor can have it: actor ids have no spaces). */
export const CLIENT_GROUP_ID = 'group clients';

/** Whether `model` has enough clients to be worth folding. */
export function canGroupClients(model: TimelineModel): boolean {
  return model.lanes.filter((l) => l.role === 'client').length >= GROUP_FROM_CLIENTS;
}

/**
 * The model with every client lane folded into one summary lane (the model itself when there are
 * too few clients), except the clients in `pulledOut`, which keep their own lanes under it so a
 * learner can follow one barista through the herd. Pure, like buildTimelineModel; computed once
 * per run (or choice), not per frame.
 */
export function groupClients(model: TimelineModel, pulledOut: ReadonlySet<string> = new Set()): TimelineModel {
  return runSteps(groupSteps(model, pulledOut));
}

/** groupClients, pausable every EVENTS_PER_STEP events or marks. */
export function* groupSteps(model: TimelineModel, pulledOut: ReadonlySet<string> = new Set()): Steps<TimelineModel> {
  if (!canGroupClients(model)) return model;
  const members = model.lanes.filter((l) => l.role === 'client' && !pulledOut.has(l.id));
  const memberIds = new Set(members.map((l) => l.id));
  const laneOf = (id: string) => (memberIds.has(id) ? CLIENT_GROUP_ID : id);

  const lanes: Lane[] = [];
  for (const lane of model.lanes) {
    if (pulledOut.has(lane.id)) continue;
    if (!memberIds.has(lane.id)) lanes.push({ ...lane, index: lanes.length });
    else if (lane === members[0]) {
      lanes.push({ id: CLIENT_GROUP_ID, label: `${members.length} clients`, role: 'client', index: lanes.length });
      for (const out of model.lanes) if (pulledOut.has(out.id)) lanes.push({ ...out, index: lanes.length });
    }
  }
  const group: LaneGroup = {
    id: CLIENT_GROUP_ID,
    members: members.map(({ id, label }) => ({ id, label })),
    density: yield* densitySteps(model, memberIds),
  };

  // A client's own state ticks and the faint copy of its lease would be fifty rows of noise in
  // one lane; beliefs (who holds it), pauses, crashes and stale beliefs keep their place.
  const intervals: Interval[] = yield* keptSteps(model.intervals, (i) =>
    memberIds.has(i.lane)
      ? i.kind === 'leaseProjection'
        ? null
        : { ...i, lane: CLIENT_GROUP_ID, key: `${i.key}@${i.lane}` }
      : i,
  );
  const points: PointMark[] = yield* keptSteps(model.points, (p) =>
    memberIds.has(p.lane) ? (p.kind === 'state' ? null : { ...p, lane: CLIENT_GROUP_ID }) : p,
  );
  const messages: MessageMark[] = yield* keptSteps(model.messages, (m) => {
    if (memberIds.has(m.from) && memberIds.has(m.to)) return null;
    return memberIds.has(m.from) || memberIds.has(m.to) ? { ...m, from: laneOf(m.from), to: laneOf(m.to) } : m;
  });
  const violations = model.violations.map((v) => ({
    ...v,
    markerLane: laneOf(v.markerLane),
    regions: v.regions.map((r) => ({ ...r, lane: laneOf(r.lane) })),
  }));
  const states = new Map([...model.states].filter(([lane]) => !memberIds.has(lane)));
  return {
    ...model,
    lanes,
    laneById: new Map(lanes.map((l) => [l.id, l])),
    intervals,
    points,
    messages,
    violations,
    states,
    leaseKeys: leaseKeysByLane(intervals),
    groups: [group],
  };
}

/** What `keep` makes of each item, less the nulls (a filter and a map in one pass), pausable. */
function* keptSteps<T>(items: readonly T[], keep: (item: T) => T | null): Steps<T[]> {
  const out: T[] = [];
  let seen = 0;
  for (const item of items) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    const kept = keep(item);
    if (kept !== null) out.push(kept);
  }
  return out;
}

/** Lock attempts and refusals per slice of the run, from the folded clients' lock.request and lock.busy events. */
function* densitySteps(model: TimelineModel, memberIds: ReadonlySet<string>): Steps<LaneGroup['density']> {
  const binMs = model.endMs / DENSITY_BINS;
  const attempts = new Array<number>(DENSITY_BINS).fill(0);
  const refusals = new Array<number>(DENSITY_BINS).fill(0);
  const firstId = new Array<number>(DENSITY_BINS).fill(Infinity);
  let seen = 0;
  for (const e of model.eventById.values()) {
    if (++seen % EVENTS_PER_STEP === 0) yield;
    if ((e.kind !== 'lock.request' && e.kind !== 'lock.busy') || !memberIds.has(e.actor)) continue;
    const bin = Math.min(DENSITY_BINS - 1, Math.floor(e.at / binMs));
    (e.kind === 'lock.request' ? attempts : refusals)[bin]!++;
    firstId[bin] = Math.min(firstId[bin]!, e.id);
  }
  const bins = [];
  for (let n = 0; n < DENSITY_BINS; n++) {
    if (attempts[n] === 0 && refusals[n] === 0) continue;
    bins.push({
      startMs: n * binMs,
      endMs: (n + 1) * binMs,
      attempts: attempts[n]!,
      refusals: refusals[n]!,
      firstId: firstId[n]!,
    });
  }
  return { bins, maxAttempts: Math.max(1, ...attempts), maxRefusals: Math.max(1, ...refusals) };
}

/** Who believes it holds a lock on the summary lane at `timeMs`, and how many tried in the last slice. */
export function groupStateAt(
  model: TimelineModel,
  group: LaneGroup,
  timeMs: number,
  happened: (id: number, at: number) => boolean,
): string {
  const labelOf = new Map(group.members.map((m) => [m.id, m.label]));
  const holders = model.intervals
    .filter(
      (i) =>
        i.kind === 'belief' &&
        i.lane === group.id &&
        happened(i.startId, i.startMs) &&
        (i.endId === null || !happened(i.endId, i.endMs)),
    )
    .map((i) => labelOf.get(i.owner ?? '') ?? i.owner);
  return holders.length > 0 ? `held by ${holders.join(', ')}` : 'nobody holds it';
}
