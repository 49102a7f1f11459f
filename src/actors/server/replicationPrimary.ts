import { integer, type Reply } from '../../redis/reply';
import { ReplicationLog, type ReplicationBatch } from '../../redis/replicationLog';
import { BLOCKED } from '../../redis/serverOptions';
import type { Sim } from '../../sim/sim';
import type { PrimaryEnd, ReplicationNode } from './replicationPeer';

interface Waiter {
  numReplicas: number;
  offset: number;
  timer: number | null;
  answer: (reply: Reply) => void;
}

/** How long a batch may stay unacknowledged before the primary resends from the backlog. */
export const RESEND_AFTER_MS = 1000;

/**
 * A node's primary side: it streams every write to its replicas over the network (in order,
 * each replica's share delayed by that replica's configured lag), counts their ACKs for WAIT
 * and for min-replicas-to-write, and answers PSYNC with a full snapshot.
 *
 * Messages travel as the primary's process, so a crash drops what was not sent yet: exactly
 * the writes a failover loses.
 */
export class ReplicationPrimary implements PrimaryEnd {
  log = new ReplicationLog();
  private waiters: Waiter[] = [];
  /** Last write offset per client (Redis's c->woff): WAIT waits for that, not for later writes. */
  private readonly lastWrite = new Map<string, number>();
  /** When each replica was last sent data it has not acknowledged yet (node clock, ms). */
  private readonly unackedSince = new Map<string, number>();

  constructor(
    private readonly sim: Sim,
    private readonly node: ReplicationNode,
  ) {}

  /** Becomes a primary whose stream continues from `offset` (a promoted replica keeps its offset, like PSYNC2). */
  start(offset: number): void {
    this.reset();
    this.log = new ReplicationLog(offset);
  }

  /** Forgets replicas and blocked clients (a crash, or turning into a replica). */
  reset(): void {
    for (const w of this.waiters) if (w.timer !== null) this.sim.kernel.cancel(w.timer);
    this.waiters = [];
    this.log = new ReplicationLog(this.log.offset);
    this.unackedSince.clear();
    this.lastWrite.clear();
  }

  /** A client command's effects: append them to the stream and ship them to every replica. */
  feed(client: string, effects: string[][]): void {
    const batch = this.log.append(effects);
    this.lastWrite.set(client, batch.end);
    for (const id of this.log.replicaIds()) this.ship(id, [batch]);
  }

  /** Sends batches to one replica, after that replica's configured lag. */
  private ship(replicaId: string, batches: ReplicationBatch[]): void {
    const replica = this.node.links?.lookup(replicaId);
    const links = this.node.links;
    if (!replica || !links || batches.length === 0) return;
    if (!this.unackedSince.has(replicaId)) this.unackedSince.set(replicaId, this.node.unixNowMs());
    const send = () => {
      for (const batch of batches) {
        const label = batch.effects.map((argv) => argv.join(' ')).join('; ');
        links.network.send(this.node.id, replica.process, label, () => replica.replica.receive(this.node.id, batch));
      }
    };
    // The configured lag belongs to the link to the replica's configured primary (a slow
    // cross-rack link); after a failover re-points it, it streams from its new primary at once.
    const lagMs = replica.options.replicaOf === this.node.id ? replica.options.replicationLagMs : 0;
    if (lagMs > 0) this.node.process.setTimer(lagMs, send);
    else send();
  }

  /** PSYNC from a replica: register it and send the whole dataset with the current offset. */
  onPsync(replicaId: string): void {
    const replica = this.node.links?.lookup(replicaId);
    const links = this.node.links;
    if (!replica || !links || this.node.role !== 'primary') return;
    const snapshot = this.node.server.snapshot();
    const offset = this.log.offset;
    // Not good for min-replicas until its first ACK, like a replica that is not online yet.
    this.log.addReplica(replicaId, -1, Number.NEGATIVE_INFINITY);
    this.unackedSince.delete(replicaId);
    const label = `FULLRESYNC ${this.node.runId.slice(0, 8)} ${offset} (${snapshot.length} commands)`;
    links.network.send(this.node.id, replica.process, label, () =>
      replica.replica.receiveSnapshot(this.node.id, snapshot, offset),
    );
  }

  /** REPLCONF ACK <offset>: a replica reports how far it has applied the stream. False: unknown replica. */
  onAck(replicaId: string, offset: number): boolean {
    if (this.node.role !== 'primary' || this.log.ackedOffset(replicaId) === undefined) return false;
    this.log.ack(replicaId, offset, this.node.unixNowMs());
    if (offset >= this.log.offset) this.unackedSince.delete(replicaId);
    this.log.refreshGood(this.node.unixNowMs(), this.node.server.config['min-replicas-max-lag']);
    this.wakeWaiters();
    return true;
  }

  /** The once-a-second part of Redis's replicationCron on a primary. */
  cron(): void {
    const now = this.node.unixNowMs();
    this.log.refreshGood(now, this.node.server.config['min-replicas-max-lag']);
    // TCP would retransmit a lost segment; the simulator's links can lose messages, so a
    // replica that stays behind for a second is resent what it is missing from the backlog.
    for (const id of this.log.replicaIds()) {
      const acked = this.log.ackedOffset(id) ?? 0;
      const since = this.unackedSince.get(id);
      if (acked < 0 || acked >= this.log.offset || since === undefined || now - since < RESEND_AFTER_MS) continue;
      const missing = this.log.since(acked);
      this.unackedSince.delete(id);
      if (missing) this.ship(id, missing);
    }
  }

  /**
   * WAIT as the command runs: answers at once when enough replicas already acknowledged this
   * client's last write, otherwise BLOCKED (the node then calls `block`).
   */
  waitNow(client: string, numReplicas: number, _timeoutMs: number): Reply {
    const acked = this.log.countAcked(this.lastWrite.get(client) ?? 0);
    return acked >= numReplicas ? integer(acked) : BLOCKED;
  }

  /** Blocks a WAIT until enough ACKs arrive or the timeout passes (0: forever), asking replicas to ACK now. */
  block(client: string, numReplicas: number, timeoutMs: number, answer: (reply: Reply) => void): void {
    const waiter: Waiter = { numReplicas, offset: this.lastWrite.get(client) ?? 0, timer: null, answer };
    this.waiters.push(waiter);
    if (timeoutMs > 0) {
      waiter.timer = this.node.process.setTimer(timeoutMs, () => {
        waiter.timer = null;
        this.settle(waiter);
      });
    }
    // Redis sends REPLCONF GETACK to every replica before it sleeps when a client is blocked in WAIT.
    const links = this.node.links;
    for (const id of this.log.replicaIds()) {
      const replica = links?.lookup(id);
      const offset = this.log.offset;
      if (replica && links)
        links.network.send(this.node.id, replica.process, 'REPLCONF GETACK *', () =>
          replica.replica.getAck(this.node.id, offset),
        );
    }
  }

  private wakeWaiters(): void {
    for (const w of [...this.waiters]) if (this.log.countAcked(w.offset) >= w.numReplicas) this.settle(w);
  }

  private settle(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) return;
    this.waiters.splice(index, 1);
    if (waiter.timer !== null) this.sim.kernel.cancel(waiter.timer);
    waiter.answer(integer(this.log.countAcked(waiter.offset)));
  }
}
