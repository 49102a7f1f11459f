import type { RedisServer } from '../redis/server';
import type { Sim } from '../sim/sim';
import type { Process } from './process';
import { unixTime, type SimTimeMs, type UnixMs } from '../sim/time';
import { localOfUnix } from './unixClock';

/** The node whose lock keys a LeaseWatch watches. */
export interface LeaseHost {
  readonly id: string;
  readonly process: Process;
  readonly server: RedisServer;
  /** The node's clock as Redis reports it. */
  unixNowMs(): UnixMs;
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
      const now = this.node.server.peek(key);
      const value = now === undefined ? undefined : ownerValue(now.type, now.value);
      const lease = this.leases.get(key);
      const expiresAtUnixMs = now?.expiresAtMs == null ? null : unixTime(now.expiresAtMs);
      if (lease && lease.value === value) {
        if (lease.expiresAtUnixMs !== expiresAtUnixMs) {
          lease.expiresAtUnixMs = expiresAtUnixMs;
          this.watchExpiry(key, lease);
        }
        continue;
      }
      if (lease) this.end(key, value === undefined ? (this.evictedKeys.has(key) ? 'evicted' : this.whyGone(lease)) : 'overwritten');
      this.evictedKeys.delete(key);
      if (value !== undefined) this.grant(key, value, expiresAtUnixMs);
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

  private whyGone(lease: Lease): 'expired' | 'deleted' {
    const expired = lease.expiresAtUnixMs !== null && this.node.unixNowMs() > lease.expiresAtUnixMs;
    return expired ? 'expired' : 'deleted';
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
   * Looks again when the node's clock passes the key's deadline. Redis itself deletes expired
   * keys lazily or by sampling; a lease, though, is over the moment the deadline passes.
   */
  private watchExpiry(key: string, lease: Lease): void {
    if (lease.expiresAtUnixMs === null) return;
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

/**
 * The owner's value stored in a lock key: the string itself, or for a reentrant lock (a hash
 * `{owner: count}`) the first field's name.
 */
function ownerValue(type: string, value: string): string | undefined {
  if (type === 'string') return value;
  if (type === 'hash') return /^\{(.*?): /.exec(value)?.[1];
  return undefined;
}
