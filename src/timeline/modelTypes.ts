import type { ActorInfo, TraceEvent } from '../sim/traceEvents';

/**
 * The timeline's layout-free picture of a run: what to draw, on which lane, from when to when.
 * Everything here is computed from the trace alone, so it can be tested without a DOM.
 */

/** One horizontal lane: an actor. */
export interface Lane {
  id: string;
  label: string;
  /** 'unknown' for actors that appear in the trace but not in run.start. */
  role: ActorInfo['role'] | 'unknown';
  index: number;
}

/**
 * lease: a lock key names an owner on a Redis node (drawn on the node's lane).
 * leaseProjection: the same lease, drawn faintly on the owner's lane for comparison.
 * belief: the client thinks it holds the lock (lock.acquired .. lock.released).
 * staleBelief: the part of a belief no Redis node backs with a lease: the lesson.
 * pause / crash: the process was stopped / down.
 * partition: the lane's links to the other side were cut (net.partition .. net.heal).
 */
export type IntervalKind = 'lease' | 'leaseProjection' | 'belief' | 'staleBelief' | 'pause' | 'crash' | 'partition';

export interface Interval {
  /** Stable across re-renders: kind + the id of the event that opened it (+ lane when shared). */
  key: string;
  kind: IntervalKind;
  lane: string;
  /** The client the lock is held for (leases, beliefs); null for pauses and crashes. */
  owner: string | null;
  lockKey: string | null;
  startMs: number;
  endMs: number;
  startId: number;
  /** The event that closed it, or null when it was still open at the end of the run. */
  endId: number | null;
  /** Why it ended, in the trace's words ('expired', 'deleted', 'released', 'resumed'...). */
  endReason: string | null;
  /** Extra words for tooltips, e.g. who a partitioned lane is cut off from. */
  detail?: string;
}

/** A write that reached a protected resource. */
export interface WriteMark {
  id: number;
  lane: string;
  at: number;
  owner: string;
  token: number | null;
  accepted: boolean;
  reason: string | null;
  value: string;
}

/**
 * delivered: arrived (a later copy of the same message is a 'duplicate').
 * dropped: the network lost it; drawn ending in a cross.
 * inFlight: neither delivered nor dropped by the end of the run.
 */
export type MessageFate = 'delivered' | 'duplicate' | 'dropped' | 'inFlight';

/** An arrow between lanes: a network message or a client's request to a resource. */
export interface MessageMark {
  /** The id of the event that ends it (deliver, drop, write) or `s<sendId>` while in flight. */
  key: string;
  sendId: number;
  endId: number | null;
  from: string;
  to: string;
  startMs: number;
  endMs: number;
  label: string;
  fate: MessageFate;
  /** 'net' for network messages, 'request' for a client's write request to a resource. */
  channel: 'net' | 'request';
  dropReason: string | null;
}

/**
 * Small marks on a lane: state changes, clock jumps, TTL expiry, restarts, request timeouts and
 * late answers, replication (a replica applying the stream, a full sync), role changes
 * (promotion, following a new primary), and Sentinel's stages (one mark per burst of its
 * opinions, votes and failover steps: `sentinelStages.ts`).
 */
export type PointKind =
  'state' | 'clockJump' | 'expiry' | 'restart' | 'timeout' | 'late' | 'replicate' | 'sync' | 'role' | 'sentinel';

export interface PointMark {
  id: number;
  kind: PointKind;
  lane: string;
  at: number;
  label: string;
  /** A label written on several lines (a sentinel's stages, one word a line). */
  lines?: string[];
  /** Every event the mark stands for, when it is more than its own (a sentinel's burst). */
  eventIds?: number[];
}

/** Where an invariant broke: shaded regions on the lanes involved and one explaining marker. */
export interface ViolationHighlight {
  key: string;
  invariant: string;
  atMs: number;
  explanation: string;
  markerLane: string;
  eventIds: number[];
  regions: { lane: string; startMs: number; endMs: number }[];
}

/** A state entered by an actor, in trace order. */
export interface StateChange {
  id: number;
  at: number;
  state: string;
}

/** One slice of a run on a summary lane: how many lock attempts and refusals fell in it. */
export interface DensityBin {
  startMs: number;
  endMs: number;
  attempts: number;
  refusals: number;
  /** The slice's first event, so the slice shows only once the playhead reaches it. */
  firstId: number;
}

/** Lanes folded into one summary lane (laneGroups.ts): a herd's clients. */
export interface LaneGroup {
  /** The summary lane's id. */
  id: string;
  /** The folded lanes, in lane order (their colours and names stay theirs). */
  members: { id: string; label: string }[];
  density: { bins: DensityBin[]; maxAttempts: number; maxRefusals: number };
}

export interface TimelineModel {
  lanes: Lane[];
  laneById: Map<string, Lane>;
  intervals: Interval[];
  writes: WriteMark[];
  messages: MessageMark[];
  points: PointMark[];
  violations: ViolationHighlight[];
  /** Per lane, the states it entered, oldest first. */
  states: Map<string, StateChange[]>;
  /** Virtual time the run ended (run.end, or the last event); at least 1 so scales never collapse. */
  endMs: number;
  /** Every event by id, for tooltips and sentences. */
  eventById: Map<number, TraceEvent>;
  /** Lanes that lease two or more lock keys: their keys, one row each, in first-seen order. */
  leaseKeys: Map<string, string[]>;
  /** What the clients take their locks from, as captions name it: Redis, or the lock service's name. */
  lockServer: string;
  /** Summary lanes standing for several actors (empty unless the host folded lanes). */
  groups: LaneGroup[];
}
