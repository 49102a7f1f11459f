import { formatReply } from '../redis/cliFormat';
import type { Reply } from '../redis/reply';
import type { ScriptEngine } from '../redis/scriptEngine';
import { RedisServer } from '../redis/server';
import type { Sim } from '../sim/sim';
import { Process } from './process';

/** Redis's clocks read Unix time; every simulated node's clock starts at this instant. */
export const EPOCH_MS = 1_700_000_000_000;

interface Lease {
  owner: string;
  value: string;
  expiresAt: number | null;
}

/**
 * A Redis node as a process: it executes commands that arrive over the network against its
 * own keyspace and clock, and it watches the lock keys so the trace can show each lease as
 * Redis sees it (granted, then expired, deleted or overwritten).
 */
export class RedisNode {
  readonly process: Process;
  server: RedisServer;
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    private readonly lockKeys: readonly string[],
    /** Maps a lock value back to the client that chose it (values are random tokens). */
    private readonly ownerOf: (value: string) => string,
    private readonly scripts: ScriptEngine | undefined,
  ) {
    this.process = new Process(sim, id);
    this.server = this.newServer();
    this.process.onRestart = () => {
      // Without persistence a restart forgets every key, and with them every lease.
      for (const key of [...this.leases.keys()]) this.endLease(key, 'lost');
      this.server = this.newServer();
    };
    this.process.onClockJump = () => this.checkLeases();
  }

  private newServer(): RedisServer {
    const random = this.sim.random.fork(`redis:${this.id}`);
    return new RedisServer({
      clock: () => EPOCH_MS + this.process.localNow(),
      random: () => random.float(),
      scripts: this.scripts,
    });
  }

  /** Runs one command as if it just arrived from `from`; returns the reply. */
  execute(argv: string[], from: string, msg: number): Reply {
    const reply = this.server.exec(argv);
    this.sim.record('redis.command', this.id, { msg, from, argv, reply: formatReply(reply) });
    this.checkLeases();
    return reply;
  }

  /** Compares each lock key with the lease we last saw and records what changed. */
  private checkLeases(): void {
    for (const key of this.lockKeys) {
      const now = this.server.peek(key);
      const value = now === undefined ? undefined : ownerValue(now.type, now.value);
      const lease = this.leases.get(key);
      if (lease && lease.value === value) {
        if (lease.expiresAt !== (now?.expiresAtMs ?? null)) {
          lease.expiresAt = now?.expiresAtMs ?? null;
          this.watchExpiry(key, lease);
        }
        continue;
      }
      if (lease) this.endLease(key, value === undefined ? this.whyGone(lease) : 'overwritten');
      if (value !== undefined) this.grantLease(key, value, now?.expiresAtMs ?? null);
    }
  }

  private whyGone(lease: Lease): 'expired' | 'deleted' {
    const expired = lease.expiresAt !== null && EPOCH_MS + this.process.localNow() > lease.expiresAt;
    return expired ? 'expired' : 'deleted';
  }

  private grantLease(key: string, value: string, expiresAtUnixMs: number | null): void {
    const lease = { owner: this.ownerOf(value), value, expiresAt: expiresAtUnixMs };
    this.leases.set(key, lease);
    this.sim.record('lease.granted', this.id, {
      key,
      owner: lease.owner,
      value,
      expiresAt: expiresAtUnixMs === null ? null : this.process.simTimeWhenLocalPasses(expiresAtUnixMs - EPOCH_MS),
    });
    this.watchExpiry(key, lease);
  }

  private endLease(key: string, reason: 'expired' | 'deleted' | 'overwritten' | 'lost'): void {
    const lease = this.leases.get(key);
    if (!lease) return;
    this.leases.delete(key);
    this.sim.record('lease.ended', this.id, { key, owner: lease.owner, reason });
  }

  /**
   * Looks again when the node's clock passes the key's deadline. Redis itself deletes expired
   * keys lazily or by sampling; a lease, though, is over the moment the deadline passes.
   */
  private watchExpiry(key: string, lease: Lease): void {
    if (lease.expiresAt === null) return;
    const at = this.process.simTimeWhenLocalPasses(lease.expiresAt - EPOCH_MS);
    this.sim.kernel.schedule(at - this.sim.now, this.process.owner, 'message', () => {
      if (this.leases.get(key) !== lease) return;
      this.checkLeases();
      // The clock may have jumped back: keep watching until the lease really ends.
      if (this.leases.get(key) === lease) this.watchExpiry(key, lease);
    });
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
