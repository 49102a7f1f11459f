import type { Network } from '../../net/network';
import type { Process } from '../process/process';
import type { RedisServerNode } from '../server/redisNode';

/**
 * What a Sentinel sees of its group and of the other sentinels in it. The group builds its
 * sentinels and each sentinel talks to the group, so they know each other through these
 * interfaces, never as classes (no import cycle between sentinel.ts and sentinelGroup.ts).
 */

/** Sentinel's knobs for one monitored group (`sentinel monitor <name> <ip> <port> <quorum>` and friends). */
export interface SentinelSettings {
  quorum: number;
  /** down-after-milliseconds: Redis's default is 30000; lessons use a couple of seconds. */
  downAfterMs: number;
  /** failover-timeout: Redis's default is 180000. */
  failoverTimeoutMs: number;
}

/** A candidate's request for votes, sent with the question whether the primary is down. */
export interface VoteRequest {
  epoch: number;
  leader: string;
}

/** The answer: is the primary down here, and whom this sentinel voted for in the asked epoch (if anyone). */
export interface DownAnswer {
  down: boolean;
  leader: string | null;
}

/** Another sentinel, as one reaches it over the network. */
export interface SentinelPeer {
  readonly id: string;
  readonly process: Process;
  /** Is `primary` down for you, and (with a request) will you vote for this leader in this epoch? */
  answerDown(primary: string, request: VoteRequest | null): DownAnswer;
  /** A hello: take this configuration if it is newer. */
  adopt(primaryId: string, epoch: number): void;
}

/** The group a sentinel watches with the others. */
export interface SentinelGroupView {
  readonly name: string;
  readonly settings: SentinelSettings;
  readonly nodes: readonly RedisServerNode[];
  readonly network: Network;
  /** The primary of the group's latest published configuration (where a new sentinel starts). */
  readonly primaryId: string;
  readonly sentinels: readonly SentinelPeer[];
  /** How many sentinels watch the group (known before they are built: their majority depends on it). */
  readonly sentinelCount: number;
  /** A sentinel switched to a new primary: the group publishes the newest epoch's. */
  published(primaryId: string, epoch: number): void;
  /** False once the run has nothing left to do, so the once-a-second loops stop. */
  keepRunning(): boolean;
  /** Registers a loop to restart when something happens again. */
  sleeping(restart: () => void): void;
}
