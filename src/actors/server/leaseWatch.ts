import type { RedisServer } from '../../redis/server';
import type { Sim } from '../../sim/sim';
import type { Process } from '../process/process';
import { unixTime, type SimTimeMs, type UnixMs } from '../../sim/time';
import { localOfUnix } from '../process/unixClock';

/** The node whose lock keys a LeaseWatch watches. */
export interface LeaseHost {
  readonly id: string;
  readonly process: Process;
  readonly server: RedisServer;
  /** The node's clock as Redis reports it. */
  unixNowMs(): UnixMs;
  /**
   * True on a primary: it deletes expired keys itself (active expiry, or a command touching
   * one), so a lease lasts as long as its key is stored. A replica never deletes by itself but
   * answers as if an expired key were gone, so there a lease ends at its deadline.
   */
  expiresKeysItself(): boolean;
}

interface Lease {
  owner: string;
  value: string;
  /** The key's deadline on the node's own clock, as Redis keeps it. */
  expiresAtUnixMs: UnixMs | null;
  /** The kernel handle of the latest look at its deadline, if one is pending. */
  watch: number | null;
}

/**
 * Watches a node's lock keys and records each lease as this node sees it: granted, then
 * expired, deleted, overwritten, or lost with the node's memory.
 *
 * On a primary a lease ends when Redis removes its key, not at the key's deadline: real Redis
 * keeps an expired key until the next active-expiry cycle (every 100 ms, activeExpiry.ts) or
 * until a command touches it. After a clock jump past the deadline that is the next cycle,
 * not the jump itself; and a SET that finds the key expired ends the lease as expired.
 */
export class LeaseWatch {
  private readonly leases = new Map<string, Lease>();
  private readonly evictedKeys = new Set<string>();

  constructor(
    private readonly sim: Sim,
    private readonly node: LeaseHost,
    private readonly lockKeys: readonly string[],
    private readonly ownerOf: (value: string) => string,
  ) {}

  /** Compares each lock key with the lease we last saw and records what changed. */
  check(): void {
    for (const key of this.lockKeys) {
      const stored = this.node.expiresKeysItself();
      const { server } = this.node;
      const value = server.lockValueOf(key, stored);
      const lease = this.leases.get(key);
      const expiresAtMs = server.expiryOf(key, stored);
      const expiresAtUnixMs = expiresAtMs == null ? null : unixTime(expiresAtMs);
      // On a primary, the same value with a new deadline after the old one passed is a new key:
      // the old one expired when the command that set it again touched it.
      const renewedAfterExpiry =
        stored && lease !== undefined && this.pastDeadline(lease) && lease.expiresAtUnixMs !== expiresAtUnixMs;
      if (lease && lease.value === value && !renewedAfterExpiry) {
        if (lease.expiresAtUnixMs !== expiresAtUnixMs) {
          lease.expiresAtUnixMs = expiresAtUnixMs;
          this.watchExpiry(key, lease);
        }
        continue;
      }
      // A command that finds the old key past its deadline expires it before doing its own work.
      if (lease)
        this.end(
          key,
          value === undefined
            ? this.evictedKeys.has(key)
              ? 'evicted'
              : this.whyGone(lease)
            : this.pastDeadline(lease)
              ? 'expired'
              : 'overwritten',
        );
      this.evictedKeys.delete(key);
      // A key stored past its deadline (a promoted replica's) is no lease to anyone.
      if (value !== undefined && (!stored || this.node.server.peek(key) !== undefined))
        this.grant(key, value, expiresAtUnixMs);
    }
  }

  /** The maxmemory policy evicted `key`: if it was a lease, that is why it ends. */
  evicted(key: string): void {
    if (this.leases.has(key)) this.evictedKeys.add(key);
  }

  /** The node went down: every lease it held is gone with it (until a restart reloads them). */
  endAll(reason: 'lost'): void {
    for (const key of [...this.leases.keys()]) this.end(key, reason);
  }

  /**
   * The node's clock jumped: a deadline now falls at another true time, so each pending look
   * at one is redone, then the leases are compared with the keys again.
   */
  clockJumped(): void {
    for (const [key, lease] of this.leases) this.watchExpiry(key, lease);
    this.check();
  }

  private whyGone(lease: Lease): 'expired' | 'deleted' {
    return this.pastDeadline(lease) ? 'expired' : 'deleted';
  }

  private pastDeadline(lease: Lease): boolean {
    return lease.expiresAtUnixMs !== null && this.node.unixNowMs() > lease.expiresAtUnixMs;
  }

  private grant(key: string, value: string, expiresAtUnixMs: UnixMs | null): void {
    const lease: Lease = { owner: this.ownerOf(value), value, expiresAtUnixMs, watch: null };
    this.leases.set(key, lease);
    this.sim.record('lease.granted', this.node.id, {
      key,
      owner: lease.owner,
      value,
      expiresAtMs: expiresAtUnixMs === null ? null : this.deadline(expiresAtUnixMs),
    });
    this.watchExpiry(key, lease);
  }

  private end(key: string, reason: 'expired' | 'deleted' | 'overwritten' | 'lost' | 'evicted'): void {
    const lease = this.leases.get(key);
    if (!lease) return;
    this.leases.delete(key);
    // Its deadline no longer matters: the watch would only find the lease gone.
    if (lease.watch !== null) this.sim.kernel.cancel(lease.watch);
    this.sim.record('lease.ended', this.node.id, { key, owner: lease.owner, reason });
  }

  /** When, in true time, this node's clock passes a Unix deadline (its drift and jumps included). */
  private deadline(unixMs: UnixMs): SimTimeMs {
    return this.node.process.simTimeWhenLocalPasses(localOfUnix(unixMs));
  }

  /**
   * On a replica, looks again when the node's clock passes the key's deadline: from then on
   * the replica answers as if the key were gone, though it is deleted only when the primary's
   * DEL arrives. A primary needs no look: its active expiry reports the deletion.
   */
  private watchExpiry(key: string, lease: Lease): void {
    if (lease.watch !== null) this.sim.kernel.cancel(lease.watch);
    lease.watch = null;
    if (lease.expiresAtUnixMs === null || this.node.expiresKeysItself()) return;
    const process = this.node.process;
    const at = this.deadline(lease.expiresAtUnixMs);
    const handle = this.sim.kernel.schedule(at - this.sim.now, process.owner, () => {
      if (lease.watch === handle) lease.watch = null;
      if (this.leases.get(key) !== lease) return;
      this.check();
      // The clock may have jumped back: keep watching until the lease really ends.
      if (this.leases.get(key) === lease) this.watchExpiry(key, lease);
    });
    lease.watch = handle;
  }
}
