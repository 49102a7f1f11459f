import type { Sim } from '../../sim/sim';
import { formatMs, simTime } from '../../sim/time';
import { Process } from '../process/process';
import { describeAnswer, type LockService } from './lockService';

interface Holder {
  value: string;
  owner: string;
  /** The store's revision when this holder's key was created: its fencing token. */
  revision: number;
  ttlMs: number;
  /** The kernel handle of the lease's expiry timer. */
  timer: number;
}

/**
 * An etcd-style lease service, reduced to what a lock needs. It is linearizable (one ordered
 * log of requests: a single process here), and every change to its store bumps one global
 * revision. A lock is a key created under a lease only if it does not exist
 * (`txn: if create_revision(key) == 0 then put(key, value, lease)`); the revision of that
 * put is the fencing token, so tokens rise with every new holder, across restarts too.
 *
 * Leases expire on the service's own timer, which runs on a monotonic clock: a wall-clock
 * jump on the service does not end a lease early (unlike a Redis key's expiry). The store and
 * the leases are durable (a raft log on disk): a restarted service still knows every lock,
 * and, as etcd does when a leader takes over, it gives each lease its full TTL again.
 */
export class LeaseService implements LockService {
  readonly process: Process;
  private revision = 1;
  private readonly holders = new Map<string, Holder>();

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    private readonly ownerOf: (value: string) => string,
  ) {
    this.process = new Process(sim, id);
    // Timers die with the process; the durable leases come back with a fresh TTL.
    this.process.onRestart(() => {
      for (const [key, holder] of this.holders) holder.timer = this.arm(key, holder);
    });
  }

  label(argv: readonly string[]): string {
    const [op, key] = argv;
    if (op === 'LOCK') return `txn put ${key} if absent (lease ${formatMs(Number(argv[3]))})`;
    if (op === 'KEEPALIVE') return `lease keepalive ${key}`;
    return `revoke lease on ${key}`;
  }

  handle(argv: readonly string[], from: string, msg: number, respond: (answer: number | null) => void): void {
    const answer = this.apply(argv);
    this.sim.record('service.command', this.id, { msg, from, argv: [...argv], reply: describeAnswer(answer) });
    respond(answer);
  }

  private apply(argv: readonly string[]): number | null {
    const [op, key, value] = argv as [string, string, string];
    const holder = this.holders.get(key);
    switch (op) {
      case 'LOCK': {
        if (holder) return null;
        const ttlMs = Number(argv[3]);
        const revision = ++this.revision;
        const fresh: Holder = { value, owner: this.ownerOf(value), revision, ttlMs, timer: -1 };
        fresh.timer = this.arm(key, fresh);
        this.holders.set(key, fresh);
        this.sim.record('lease.granted', this.id, {
          key,
          owner: fresh.owner,
          value,
          expiresAtMs: simTime(this.sim.now + ttlMs),
        });
        return revision;
      }
      case 'KEEPALIVE': {
        if (holder?.value !== value) return 0;
        this.sim.kernel.cancel(holder.timer);
        holder.timer = this.arm(key, holder);
        return 1;
      }
      default: {
        if (holder?.value !== value) return 0;
        this.sim.kernel.cancel(holder.timer);
        this.end(key, holder, 'deleted');
        return 1;
      }
    }
  }

  /** Starts the lease's countdown on the service's monotonic timer (frozen while it is paused). */
  private arm(key: string, holder: Holder): number {
    return this.process.setTimer(holder.ttlMs, () => {
      if (this.holders.get(key) === holder) this.end(key, holder, 'expired');
    });
  }

  private end(key: string, holder: Holder, reason: 'expired' | 'deleted'): void {
    this.holders.delete(key);
    this.revision++;
    this.sim.record('lease.ended', this.id, { key, owner: holder.owner, reason });
  }
}
