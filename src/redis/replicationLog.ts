/**
 * A primary's side of replication as plain bookkeeping: the replication offset (bytes of the
 * command stream, as Redis counts them), the backlog of batches a lagging replica can be resent
 * from, and what each replica last acknowledged. The network side lives in the actors; this
 * part decides WAIT's count and min-replicas-to-write's "good replicas".
 */

/** One propagated batch: the commands of one client command, and where it sits in the stream. */
export interface ReplicationBatch {
  /** Offset before the batch. */
  start: number;
  /** Offset after the batch. */
  end: number;
  effects: string[][];
}

interface ReplicaAck {
  offset: number;
  /** This node's clock (unix ms) when the last ACK arrived. */
  atMs: number;
}

/** Bytes a command takes in the replication stream (RESP multi-bulk, like Redis counts it). */
export function respBytes(argv: readonly string[]): number {
  let bytes = `*${argv.length}\r\n`.length;
  for (const arg of argv) bytes += `$${arg.length}\r\n`.length + arg.length + 2;
  return bytes;
}

/** Redis's default repl-backlog-size is 1 MB; the simulator keeps this many bytes of batches. */
export const BACKLOG_BYTES = 1024 * 1024;

export class ReplicationLog {
  offset = 0;
  /** Batches from `head` on are the backlog; earlier slots are dropped ones not yet compacted away. */
  private backlog: ReplicationBatch[] = [];
  private head = 0;
  private backlogBytes = 0;
  private readonly acks = new Map<string, ReplicaAck>();
  /** Cached like Redis's `repl_good_slaves_count`: refreshed once a second and on every ACK. */
  goodReplicas = 0;

  constructor(startOffset = 0) {
    this.offset = startOffset;
  }

  /** Appends a batch of effects to the stream; returns it with its offsets. */
  append(effects: string[][]): ReplicationBatch {
    const start = this.offset;
    const bytes = effects.reduce((sum, argv) => sum + respBytes(argv), 0);
    this.offset += bytes;
    const batch = { start, end: this.offset, effects };
    this.backlog.push(batch);
    this.backlogBytes += bytes;
    // Dropping from the front moves a head index: shifting a backlog of thousands of small
    // batches on every write made a busy primary's writes cost more than its commands.
    while (this.backlogBytes > BACKLOG_BYTES && this.backlog.length - this.head > 1) {
      const dropped = this.backlog[this.head++]!;
      this.backlogBytes -= dropped.end - dropped.start;
    }
    if (this.head > 1024 && this.head * 2 > this.backlog.length) {
      this.backlog = this.backlog.slice(this.head);
      this.head = 0;
    }
    return batch;
  }

  /** Batches after `offset`, or null when the backlog no longer reaches back that far. */
  since(offset: number): ReplicationBatch[] | null {
    if (offset >= this.offset) return [];
    let first = this.head;
    while (first < this.backlog.length && this.backlog[first]!.end <= offset) first++;
    if (first === this.backlog.length || this.backlog[first]!.start > offset) return null;
    return this.backlog.slice(first);
  }

  /** A replica connected (or reconnected after a full sync at `offset`). */
  addReplica(id: string, offset: number, nowMs: number): void {
    this.acks.set(id, { offset, atMs: nowMs });
  }

  removeReplica(id: string): void {
    this.acks.delete(id);
  }

  /** Records REPLCONF ACK <offset> from a replica. */
  ack(id: string, offset: number, nowMs: number): void {
    const known = this.acks.get(id);
    if (!known) return;
    known.offset = Math.max(known.offset, offset);
    known.atMs = nowMs;
  }

  /** The replicas this primary streams to, in the order they connected. */
  replicaIds(): string[] {
    return [...this.acks.keys()];
  }

  /** What `id` last acknowledged, or undefined when it is not connected. */
  ackedOffset(id: string): number | undefined {
    return this.acks.get(id)?.offset;
  }

  /** WAIT's count: replicas that acknowledged at least `offset`. */
  countAcked(offset: number): number {
    let count = 0;
    for (const a of this.acks.values()) if (a.offset >= offset) count++;
    return count;
  }

  /**
   * Redis's refreshGoodSlavesCount: a replica is good when its last ACK is at most `maxLagS`
   * seconds old, measured in whole seconds of the primary's clock (which is why a stopped
   * replica keeps counting as good for up to max-lag + 2 s).
   */
  refreshGood(nowMs: number, maxLagS: number): number {
    const nowS = Math.floor(nowMs / 1000);
    let good = 0;
    for (const a of this.acks.values()) if (nowS - Math.floor(a.atMs / 1000) <= maxLagS) good++;
    this.goodReplicas = good;
    return good;
  }
}
