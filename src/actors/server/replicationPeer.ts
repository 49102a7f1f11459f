import type { UnixMs } from '../../sim/time';
import type { Network } from '../../net/network';
import type { ReplicationBatch } from '../../redis/replicationLog';
import type { RedisServer } from '../../redis/server';
import type { Process } from '../process/process';

/**
 * What the two halves of replication (ReplicationPrimary, ReplicationReplica) see of the node
 * they belong to and of its peers. A node holds both halves and a peer's halves talk to each
 * other, so they know each other only through these interfaces, never as classes: that keeps
 * redisNode.ts, replicationPrimary.ts and replicationReplica.ts free of import cycles.
 */

/** A primary's side as a replica reaches it over the network. */
export interface PrimaryEnd {
  /** PSYNC ? -1: the replica wants a full sync. */
  onPsync(replicaId: string): void;
  /** REPLCONF ACK: false when this node no longer streams to that replica (it must reconnect). */
  onAck(replicaId: string, offset: number): boolean;
}

/** A replica's side as a primary reaches it over the network. */
export interface ReplicaEnd {
  receiveSnapshot(from: string, commands: readonly string[][], offset: number): void;
  receive(from: string, batch: ReplicationBatch): void;
  /** REPLCONF GETACK: acknowledge once the stream reaches `offset`. */
  getAck(from: string, offset: number): void;
}

/** The node a replication half belongs to, or a peer it talks to. */
export interface ReplicationNode {
  readonly id: string;
  readonly process: Process;
  readonly server: RedisServer;
  readonly role: 'primary' | 'replica';
  readonly runId: string;
  readonly options: { readonly replicaOf: string | null; readonly replicationLagMs: number };
  readonly links: { readonly network: Network; lookup(id: string): ReplicationNode | undefined } | null;
  readonly primary: PrimaryEnd;
  readonly replica: ReplicaEnd;
  /** The node's clock, Unix ms. */
  unixNowMs(): UnixMs;
  /** Throws the dataset away and loads a full-resync snapshot; returns how many keys were discarded. */
  loadSnapshot(commands: readonly string[][]): number;
  /** Applies one batch of the primary's stream. */
  applyFromPrimary(effects: readonly string[][]): void;
}
