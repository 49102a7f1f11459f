/**
 * The trace's vocabulary: every kind of event a run can record, with its data. The timeline,
 * the checkers, the inspector and the tests all read these and nothing else.
 *
 * Names are dotted, subject first. Times inside data are SimTimeMs unless the name says Local.
 */
export interface TraceEventMap {
  /** The run began; `actors` lists lanes in display order. */
  'run.start': { scenario: string; seed: number; actors: ActorInfo[] };
  /** The run stopped: nothing left to do, or a cap was hit. */
  'run.end': { reason: 'idle' | 'time-cap' | 'event-cap' };
  /** A learner action or scripted step was applied. */
  'action.apply': { action: string; source: 'script' | 'learner'; detail: string };

  'process.pause': { forMs: number | null };
  'process.resume': Record<string, never>;
  'process.crash': Record<string, never>;
  'process.restart': Record<string, never>;
  'clock.jump': { byMs: number };

  /** An actor's state machine entered a new state (what the lane label shows). */
  'actor.state': { state: string };

  'net.send': { msg: number; to: string; label: string };
  'net.deliver': { msg: number; from: string; label: string };
  'net.drop': { msg: number; to: string; label: string; reason: 'loss' | 'partition' | 'crashed' };

  /** A Redis node executed a command (at the node, when it arrived). */
  'redis.command': { msg: number; from: string; argv: string[]; reply: string };
  /** A lock key now names an owner on this node: a lease as Redis sees it. */
  'lease.granted': { key: string; owner: string; value: string; expiresAt: number | null };
  /** The lease ended on this node. */
  'lease.ended': { key: string; owner: string; reason: 'expired' | 'deleted' | 'overwritten' | 'lost' };

  /** The client starts trying to take the lock. */
  'lock.request': { key: string };
  /** The client now believes it holds the lock. */
  'lock.acquired': { key: string; value: string; token: number | null; ttlMs: number };
  /** The client tried and did not get the lock (it may retry). */
  'lock.busy': { key: string };
  /** The client let go of the lock; `deleted` is what Redis answered. */
  'lock.released': { key: string; deleted: boolean };

  /** The client sent a write to the protected resource. */
  'resource.request': { resource: string; token: number | null; value: string };
  /** The resource applied or refused a write. */
  'resource.write': {
    from: string;
    token: number | null;
    value: string;
    accepted: boolean;
    /** Highest token seen before this write, for fenced resources. */
    highestToken: number | null;
    reason: string | null;
  };
}

export type TraceKind = keyof TraceEventMap;

export interface ActorInfo {
  id: string;
  label: string;
  role: 'client' | 'redis' | 'resource' | 'sentinel';
}

/** One recorded event. `id` is its index in the trace, stable across replays of the same run. */
export type TraceEvent<K extends TraceKind = TraceKind> = K extends TraceKind
  ? { id: number; at: number; kind: K; actor: string; data: TraceEventMap[K] }
  : never;
