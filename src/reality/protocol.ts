import type { IfBusy, StepMeaning } from '../actors/client/clientSteps';
import type { OneNodeRecipeName } from '../actors/recipes/catalog';
import type { RedlockOptions } from '../actors/recipes/redlock';
import type { RetryPolicy } from '../actors/client/retryPolicy';
import type { ReadResult } from '../actors/resources/resource';
import { describeAnswer } from '../actors/services/lockService';
import { sharedNowMs } from './sharedClock';
import type { ResourceOp, TraceEventMap, TraceKind } from '../sim/traceEvents';

/**
 * What the harness and its child processes say to each other over Node's IPC channel. A child
 * reports what it did in the simulator's own event kinds, stamped with the moment it did it
 * (`Stamped`); the harness maps each stamp to scenario time.
 */
export type Report = { [K in TraceKind]: { kind: K; actor: string; data: TraceEventMap[K] } }[TraceKind];

/**
 * A report as a child sends it: stamped when it happened, on the machine's monotonic clock
 * (sharedClock.ts, as `Go` is). Stamped at the sender, an event keeps its moment when the
 * harness is slow to read its messages: on a loaded machine a harness running several scenarios
 * at once read a client's reports a second late, all together, and the run's order of events
 * was the harness's, not the clients'.
 */
export type Stamped = Report & { atSharedMs: number };

export const stamped = (r: Report): Stamped => ({ ...r, atSharedMs: sharedNowMs() });

/**
 * A client's call to a lock service other than Redis (etcd, PostgreSQL), as the simulator's
 * `service.command` records it: the simulator's words for it (LOCK, KEEPALIVE, UNLOCK) and its
 * answer. No message number: the call does not go through the harness's link proxies.
 */
export const serviceCommand = (service: string, from: string, argv: string[], answer: number | null): Report => ({
  kind: 'service.command',
  actor: service,
  data: { msg: -1, from, argv, reply: describeAnswer(answer) },
});

/** A child's first word: it is connected and waiting for `go`. */
export interface Ready {
  ready: true;
}

/** The harness starts scenario time: every child counts its own `startAt` from here. */
export interface Go {
  go: true;
  /** When scenario time 0 is, on the machine's monotonic clock (sharedClock.ts: the same in every process). */
  startSharedMs: number;
}

/**
 * One step of a client's step list as the real client carries it out: its command already
 * scaled (scaledCommand.ts), a wait in real milliseconds, and the words the simulator's
 * `step.start` gives it. `node`: the Redis node a command goes to; `leaseMs`: the lease it asks
 * for in scenario ms (null: none; what `lock.acquired` reports).
 */
export type RealStep = { detail: string } & (
  | { do: 'redis'; argv: string[]; node: string; as: StepMeaning; ifBusy: IfBusy; leaseMs: number | null }
  | { do: 'wait'; ms: number }
  | { do: 'read' }
  | { do: 'write' }
);

/** A cluster primary and the slot ranges it serves, as the scenario gives them. */
export interface ClusterShard {
  id: string;
  slots: [number, number][];
}

/** How a real lock client runs its recipe (or its step list); every duration already scaled to real milliseconds. */
export interface ClientConfig {
  id: string;
  /** Null for a client that follows a step list. */
  recipe: OneNodeRecipeName | 'redlock' | 'lease-service' | 'db-lock' | null;
  /** A semaphore's size (the semaphore recipe's). */
  permits: number;
  /** How many times a nested call takes the lock again while the job holds it. */
  reenter: number;
  steps: RealStep[] | null;
  /** The lock keys, taken in this order and released last first (most clients have one). */
  keys: string[];
  /** The client's random lock value (`A-1f2e3d4c`, like the simulator's). */
  value: string;
  /** The Redis nodes this client talks to, as it reaches them: one, or Redlock's N independent masters. */
  masters: { id: string; port: number }[];
  /**
   * With Sentinel, the one master is whichever node the group's sentinels name: the client asks
   * them (ioredis's Sentinel support) instead of dialling `masters`. `ports`: the client's way
   * to each sentinel; `nodes`: each node by the port the sentinels name it at (`announced`) and
   * the port this client reaches it at (a link proxy's when the scenario's network touches the
   * pair), so its messages say which node they went to.
   */
  sentinel?: { name: string; ports: number[]; nodes: { id: string; announced: number; port: number }[] };
  /**
   * Every write is followed by `WAIT replicas timeout` (the scenario's `redis.wait`, its timeout
   * scaled), and too few acknowledgements are the client library's refusal, as the simulator's
   * client has it (rpc.ts).
   */
  wait?: { replicas: number; timeoutRealMs: number; releaseRefused: boolean };
  /** The `lease-service` recipe's etcd (etcd.ts): its scenario id and its client URL. */
  leaseService?: { id: string; url: string };
  /** The `db-lock` recipe's PostgreSQL (postgres.ts): its scenario id and port. */
  dbLock?: { id: string; port: number };
  /** In a Redis Cluster, `masters` is every primary and each command goes to its key's (realCluster.ts). */
  cluster?: ClusterShard[];
  /** Redlock's knobs, its instance timeout scaled to real milliseconds (unused by the other recipes). */
  redlock: RedlockOptions;
  resourceId: string;
  resourceUrl: string;
  /** The resource is read before the work (a payment, a dispatch, an inventory): its answer says whether to act at all. */
  readsFirst: boolean;
  /** What the client's change is, as the simulator's resource describes it (`resource.request`). */
  request: { value: string; op?: ResourceOp };
  /** The TTL as the scenario wrote it (reported in lock.acquired) and as Redis is asked for it (scaled). */
  ttlScenarioMs: number;
  ttlRealMs: number;
  workRealMs: number | null;
  startAtRealMs: number;
  gapRealMs: number;
  timeoutRealMs: number | null;
  renewEveryRealMs: number | null;
  onRenewFail: 'stop' | 'retry';
  jobs: number;
  fencing: boolean;
  onUnavailable: 'refuse' | 'proceed';
  /** The watchdog stops renewing once the keys have been held this long (the client's `maxHold`), in scenario and real ms. */
  maxHold?: { scenarioMs: number; realMs: number };
  /** A circuit breaker around acquire calls (realBreaker.ts), its cool-down scaled. */
  breaker?: { failures: number; coolDownRealMs: number };
  /**
   * The retry policy in scenario milliseconds, as the simulator's client has it: the real client
   * draws its jitter from the same stream (`seed`, the scenario's, forked as World forks it), so
   * both sides wait the same scenario time, then multiplies each wait by `scale`.
   */
  retry: RetryPolicy;
  seed: number;
  startAtScenarioMs: number;
  scale: number;
}

/**
 * A client's call to the resource service, as the simulator's client makes it
 * (src/actors/resources/resourceCalls.ts): a read, or its change (a write, a charge, an
 * assignment) with its token and what it read first; each carries the client's lock value,
 * which a row that compares lock values (cas-row) stamps and checks.
 */
export type ResourceCall = { from: string; value: string } & (
  { op: 'read' } | { op: 'act'; token: number | null; basis: ReadResult | null }
);
