import type { ReplicationBatch } from '../../redis/replicationLog';
import type { Sim } from '../../sim/sim';
import type { ReplicaEnd, ReplicationNode } from './replicationPeer';

/** A replica resends PSYNC when its full sync has not arrived within this long. */
export const PSYNC_RETRY_MS = 1000;

/**
 * A node's replica side: it asks its primary for a full sync, then applies the stream strictly
 * in offset order (TCP's promise: batches that overtake each other on the simulated network
 * wait for the ones before them), and acknowledges its offset once a second and whenever the
 * primary asks (WAIT). It never expires keys itself; the primary's DELs do that.
 */
export class ReplicationReplica implements ReplicaEnd {
  /** How far the stream has been applied (the primary's offset of the last applied batch). */
  offset = 0;
  synced = false;
  primaryId: string | null = null;
  private pending = new Map<number, ReplicationBatch>();
  private psyncSentAtMs = Number.NEGATIVE_INFINITY;
  /** A GETACK asked for an ACK once the stream reaches this offset (it travels in the stream, after the data). */
  private ackWanted: number | null = null;

  constructor(
    private readonly sim: Sim,
    private readonly node: ReplicationNode,
  ) {}

  /** Starts following `primaryId`: PSYNC now, and again from the cron until the snapshot arrives. */
  connect(primaryId: string): void {
    this.primaryId = primaryId;
    this.synced = false;
    this.pending.clear();
    this.ackWanted = null;
    this.psync();
  }

  /** Stops following (promotion or a crash). */
  stop(): void {
    this.primaryId = null;
    this.synced = false;
    this.pending.clear();
  }

  private psync(): void {
    const primary = this.primaryId === null ? undefined : this.node.links?.lookup(this.primaryId);
    const links = this.node.links;
    if (!primary || !links) return;
    this.psyncSentAtMs = this.node.unixNowMs();
    links.network.send(this.node.id, primary.process, 'PSYNC ? -1', () => primary.primary.onPsync(this.node.id));
  }

  /** The full sync: flush everything, load the primary's dataset, continue from its offset. */
  receiveSnapshot(from: string, commands: readonly string[][], offset: number): void {
    if (from !== this.primaryId || this.node.role !== 'replica') return;
    const discarded = this.node.loadSnapshot(commands);
    this.offset = offset;
    this.synced = true;
    this.sim.record('redis.sync', this.node.id, { from, offset, keys: this.node.server.storedKeyCount, discarded });
    for (const start of [...this.pending.keys()]) if (start < offset) this.pending.delete(start);
    this.drain();
    this.sendAck();
  }

  /** One batch of the stream; applied when every byte before it has been. */
  receive(from: string, batch: ReplicationBatch): void {
    if (from !== this.primaryId || !this.synced || batch.end <= this.offset) return;
    this.pending.set(batch.start, batch);
    this.drain();
  }

  private drain(): void {
    for (let next = this.pending.get(this.offset); next; next = this.pending.get(this.offset)) {
      this.pending.delete(next.start);
      this.node.applyFromPrimary(next.effects);
      this.offset = next.end;
      this.sim.record('redis.replicate', this.node.id, { from: this.primaryId!, offset: next.end, argv: next.effects });
    }
    if (this.ackWanted !== null && this.offset >= this.ackWanted) {
      this.ackWanted = null;
      this.sendAck();
    }
  }

  /**
   * REPLCONF GETACK: in Redis it travels in the replication stream after the data, so the ACK
   * it triggers covers everything sent before it. Here it may overtake the data on the
   * network, so the replica answers once it has applied up to `offset`.
   */
  getAck(from: string, offset: number): void {
    if (from !== this.primaryId || !this.synced) return;
    if (this.offset >= offset) return this.sendAck();
    this.ackWanted = Math.max(this.ackWanted ?? 0, offset);
  }

  /** REPLCONF ACK <offset> to the primary. */
  sendAck(): void {
    const primary = this.primaryId === null ? undefined : this.node.links?.lookup(this.primaryId);
    const links = this.node.links;
    if (!primary || !links || !this.synced) return;
    const offset = this.offset;
    links.network.send(this.node.id, primary.process, `REPLCONF ACK ${offset}`, () => {
      if (primary.primary.onAck(this.node.id, offset)) return;
      // The primary restarted and no longer knows this replica (the connection broke): resync,
      // and throw away whatever this replica had, like Redis does.
      links.network.send(primary.id, this.node.process, 'reconnect', () => {
        if (this.primaryId === primary.id) this.connect(primary.id);
      });
    });
  }

  /** The once-a-second part of replicationCron on a replica. */
  cron(): void {
    if (this.primaryId === null) return;
    if (!this.synced) {
      if (this.node.unixNowMs() - this.psyncSentAtMs >= PSYNC_RETRY_MS) this.psync();
      return;
    }
    this.sendAck();
  }
}
