import type { RedisServer } from '../../redis/server';
import type { Sim } from '../../sim/sim';
import { simTime, unixTime, type SimTimeMs } from '../../sim/time';
import type { Process } from '../process/process';
import { localOfUnix } from '../process/unixClock';

/** Redis's default `hz 10`: serverCron, and with it the active-expiry cycle, runs every 100 ms. */
export const CRON_PERIOD_MS = 100;
/** How far ahead the cycle schedules itself for keys that are not locks (see the class note). */
const LOOKAHEAD_MS = 1000;

/** The node whose keys an ActiveExpiry deletes. */
export interface ExpiryHost {
  readonly process: Process;
  readonly server: RedisServer;
  /** Only a primary expires keys; a replica waits for its primary's DEL. */
  expiresKeysItself(): boolean;
  /** Runs one active-expiry cycle and returns the keys it deleted. */
  expireCycle(): string[];
}

/**
 * A Redis node's active expiry: serverCron runs every 100 ms on the node's timers (monotonic,
 * so a clock jump does not move them) and each run deletes the keys whose absolute expiry
 * (Unix ms) the node's wall clock has passed. That is why a key disappears at most about
 * 100 ms after its deadline even when nobody touches it, and, after a forward jump of the
 * clock past its deadline, within 100 ms of the jump (measured on redis-server 7.0 under
 * libfaketime: src/redis/differential/clockJump.test.ts).
 *
 * Ticking every 100 ms for a whole run would cost a kernel event per tick, so only the tick
 * that has work is scheduled: the first one (on the cron's phase, counted from the node's
 * start) at or after the moment the node's clock passes the earliest expiry. `refresh` keeps
 * that right after anything that can move it: a command, a clock jump, a role change.
 *
 * A run ends when nothing is left to happen, so the cycle must not keep one going for a key
 * nobody watches (a cache entry that lives for an hour). A lock key's expiry always counts:
 * the lane shows its lease running out even after every client is done. Any other key's
 * counts only while the world still has work (`keepRunning`), and then the cycle looks at
 * most a second ahead, so that a tick far away cannot outlive the clients.
 */
export class ActiveExpiry {
  private handle: number | null = null;
  /** The sim time of the scheduled tick (when `handle` is set). */
  private dueAt = 0;
  /** The sim time of the cron's first tick, which sets the phase of every later one. */
  private origin: SimTimeMs = simTime(0);
  /** The last tick that ran: the next one is at least a period later. */
  private lastTick = -Infinity;

  /** Whether the world still has work (set by the world; a lone test node always has). */
  keepRunning: () => boolean = () => true;

  constructor(
    private readonly sim: Sim,
    private readonly node: ExpiryHost,
    /** The lock keys, whose leases the trace shows. */
    private readonly watchedKeys: readonly string[],
    /** Called with the keys a cycle deleted (none: nothing to report). */
    private readonly onDeleted: (keys: string[]) => void,
  ) {}

  /** A new server life begins now: like Redis, its first cron runs 1 ms after the start. */
  start(): void {
    this.stop();
    this.origin = simTime(this.sim.now + 1);
    this.lastTick = -Infinity;
    this.refresh();
  }

  /** Cancels the scheduled tick (a crash drops it anyway; a replica has none). */
  stop(): void {
    if (this.handle !== null) this.sim.kernel.cancel(this.handle);
    this.handle = null;
  }

  /** Schedules the tick that will find the earliest expiry passed, if it moved. */
  refresh(): void {
    const process = this.node.process;
    const server = this.node.server;
    if (process.crashed || !this.node.expiresKeysItself() || !server.debug.activeExpire) {
      this.stop();
      return;
    }
    let tick = Infinity;
    const watched = this.earliestWatched();
    if (watched !== null) tick = this.tickAfter(watched);
    const any = this.keepRunning() ? server.earliestExpiryMs() : null;
    if (any !== null) tick = Math.min(tick, this.tickAfter(any), this.phaseAtOrAfter(this.sim.now + LOOKAHEAD_MS));
    if (tick === Infinity) {
      this.stop();
      return;
    }
    if (this.handle !== null && tick === this.dueAt) return;
    this.stop();
    this.dueAt = tick;
    this.handle = this.sim.kernel.schedule(tick - this.sim.now, process.owner, () => this.tick());
  }

  /** The first tick at which the node's clock has passed `unixMs`. */
  private tickAfter(unixMs: number): number {
    const passes = this.node.process.simTimeWhenLocalPasses(localOfUnix(unixTime(unixMs)));
    return Math.max(this.phaseAtOrAfter(passes), this.lastTick + CRON_PERIOD_MS, this.sim.now);
  }

  /** The first tick of the cron's phase at or after sim time `t`. */
  private phaseAtOrAfter(t: number): number {
    return this.origin + Math.ceil((t - this.origin) / CRON_PERIOD_MS) * CRON_PERIOD_MS;
  }

  /** The earliest expiry among stored lock keys (expired or not yet); null: none has one. */
  private earliestWatched(): number | null {
    let earliest: number | null = null;
    for (const key of this.watchedKeys) {
      const at = this.node.server.expiryOf(key, true) ?? null;
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  private tick(): void {
    this.handle = null;
    this.lastTick = this.sim.now;
    const deleted = this.node.expiresKeysItself() ? this.node.expireCycle() : [];
    if (deleted.length > 0) this.onDeleted(deleted);
    this.refresh();
  }
}
