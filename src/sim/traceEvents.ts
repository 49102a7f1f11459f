import type { SimTimeMs } from './time';

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
  'run.end': { reason: 'idle' | 'time-cap' | 'event-cap' | 'script-cap' };
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
  /** Links between the groups were cut (one way: only messages from groups[0] to groups[1]). */
  'net.partition': { groups: string[][]; oneWay: boolean };
  /** Every partition was healed. */
  'net.heal': Record<string, never>;

  /** The sender stopped waiting for the answer to message `msg`: the outcome is now unknown to it. */
  'request.timeout': { msg: number; to: string; label: string };
  /** An answer came back after its request had timed out: the request *was* applied. */
  'request.late': { msg: number; from: string; label: string };

  /** A Redis node executed a command (at the node, when it arrived). */
  'redis.command': { msg: number; from: string; argv: string[]; reply: string };
  /** A lock key now names an owner on this node: a lease as Redis sees it. */
  'lease.granted': { key: string; owner: string; value: string; expiresAtMs: SimTimeMs | null };
  /** The lease ended on this node. */
  'lease.ended': { key: string; owner: string; reason: 'expired' | 'deleted' | 'overwritten' | 'lost' | 'evicted' };

  /** A WAIT blocked on this primary: the reply comes when replicas acknowledge or at the timeout. */
  'redis.wait': { msg: number; from: string; numReplicas: number; timeoutMs: number };
  /** This node changed role (REPLICAOF NO ONE / REPLICAOF <primary>); `of` is the primary it follows. */
  'redis.role': { role: 'primary' | 'replica'; of: string | null; reason: string };
  /** A replica applied a batch of its primary's stream; `offset` is its replication offset after it. */
  'redis.replicate': { from: string; offset: number; argv: string[][] };
  /** A replica threw its data away and loaded its primary's dataset (full resync). */
  'redis.sync': { from: string; offset: number; keys: number; discarded: number };
  /** The maxmemory policy evicted `key` to make room (propagated to replicas as DEL). */
  'redis.evict': { key: string; policy: string };
  /** A node came back up and replayed what its persistence kept (`commands` from the AOF). */
  'redis.recover': { persistence: 'none' | 'always' | 'everysec' | 'no'; commands: number; keys: number };
  /** The machine lost power: unlike a process crash, unsynced AOF data is gone (process.crash follows). */
  'process.power-loss': Record<string, never>;

  /** A sentinel's PINGs to `node` went unanswered for down-after-milliseconds (down) or it answered again. */
  'sentinel.sdown': { node: string; down: boolean };
  /** Enough sentinels (`votes` of `quorum`) agree the primary is down (or it came back: down false). */
  'sentinel.odown': { primary: string; votes: number; quorum: number; down: boolean };
  /** This sentinel voted for `leader` to run the failover of epoch `epoch`. */
  'sentinel.vote': { epoch: number; leader: string };
  /** This sentinel won the election for `epoch` with `votes` of the `needed` majority. */
  'sentinel.elected': { epoch: number; votes: number; needed: number };
  /** A failover of `group` began at this sentinel (manual: SENTINEL FAILOVER, no agreement needed). */
  'failover.start': { group: string; primary: string; epoch: number; manual: boolean };
  /** The leader promoted `to` (REPLICAOF NO ONE) in place of `from`. */
  'failover.promote': { group: string; from: string; to: string; epoch: number };
  /** The failover could not go on (no replica fit to promote, or it timed out). */
  'failover.abort': { group: string; reason: string };
  /** This sentinel now knows `to` as the group's primary (+switch-master). */
  'sentinel.switch': { group: string; from: string; to: string; epoch: number };

  /** The client starts trying to take the lock. */
  'lock.request': { key: string };
  /**
   * The client now believes it holds the lock. `ttlMs`: the lease the key got, its PTTL on Redis
   * just after the command that set it (null: the key has no expiry). `validityMs`: Redlock's
   * validity (TTL − elapsed − drift), how long the client may use the lock, from when it asked.
   */
  'lock.acquired': { key: string; value: string; token: number | null; ttlMs: number | null; validityMs?: number };
  /**
   * The client tried and did not get the lock (it may retry). `refusal` is set when Redis did
   * grant it but the client library refused to count it (e.g. WAIT confirmed too few replicas).
   */
  'lock.busy': { key: string; refusal?: string };
  /** The client let go of the lock; `deleted` is what Redis answered. */
  'lock.released': { key: string; deleted: boolean };
  /** The client's watchdog extended its lease (Redis confirmed it still held the key). */
  'lock.renewed': { key: string; ttlMs: number };
  /** The client stopped believing it holds the lock without releasing it (renewal failed). */
  'lock.lost': { key: string; reason: string };
  /** The client stopped trying to take the lock: its retry policy ran out, or Redis answered with `error`. */
  'lock.failed': { key: string; attempts: number; error?: string };

  /** A step-list client began step `index` of its list (`detail` as the scenario wrote it). */
  'step.start': { index: number; detail: string };
  /** That step finished: what came back (a reply, accepted or rejected, waited). */
  'step.done': { index: number; result: string };

  /** A lock service other than Redis (etcd-style lease service, DB lock table) ran a request. */
  'service.command': { msg: number; from: string; argv: string[]; reply: string };

  /** The client sent a write to the protected resource. */
  'resource.request': { resource: string; token: number | null; value: string; op?: ResourceOp };
  /** The resource answered a read: its state as the client will act on it. */
  'resource.read': { from: string; value: string; version: number };
  /** The resource applied or refused a write. */
  'resource.write': {
    from: string;
    token: number | null;
    value: string;
    accepted: boolean;
    /** Highest token seen before this write, for fenced resources. */
    highestToken: number | null;
    reason: string | null;
    /** What kind of change (absent means a plain 'write'). */
    op?: ResourceOp;
    /** The order a charge or assignment was for. */
    order?: string;
    /** The resource's version after this write, and the version the writer had read. */
    version?: number;
    readVersion?: number;
  };
}

export type TraceKind = keyof TraceEventMap;

/** What a client asks a resource to do: overwrite a value, decrement stock, charge, assign a driver. */
export type ResourceOp = 'write' | 'decrement' | 'charge' | 'assign';

export interface ActorInfo {
  id: string;
  label: string;
  /** service: a lock service that is not Redis (an etcd-style lease service, a database lock table). */
  role: 'client' | 'redis' | 'service' | 'resource' | 'sentinel';
  /** A client's lock pattern, absent for a plain exclusive lock: the pattern checkers read it here. */
  lock?: LockPattern;
}

/**
 * How a client's lock may be held, as the checkers need it: they judge a run from its trace
 * alone, so the run records what its recipes promise. Only a client of a lock pattern has one,
 * which keeps the trace of every other run as it always was.
 */
export interface LockPattern {
  /** The keys the client locks. */
  keys: string[];
  /** A side of a read-write lock, or one of a semaphore's `permits` holders: either shares its keys by design. */
  shares?: 'reader' | 'writer' | 'semaphore';
  permits?: number;
  /** A fair lock: clients are served in the order they asked. */
  fair?: true;
  /** A circuit breaker guards its acquire calls. */
  breaker?: true;
}

/** One recorded event. `id` is its index in the trace, stable across replays of the same run. */
export type TraceEvent<K extends TraceKind = TraceKind> = K extends TraceKind
  ? { id: number; at: SimTimeMs; kind: K; actor: string; data: TraceEventMap[K] }
  : never;
