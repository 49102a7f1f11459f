import type { Sim } from '../../sim/sim';
import { localTime, simTime, type LocalClockMs, type SimTimeMs } from '../../sim/time';
import type { Process } from '../process/process';
import type { Granted, Recipe } from '../recipes/recipe';
import type { ClientSpec } from './clientSpec';

/** How the watchdog's round of renewals went, as the lock client machine hears it. */
export type RenewOutcome = { type: 'RENEWED' } | { type: 'RENEW_FAILED'; definite: boolean; leaseLeftMs: number };

/**
 * The lease a lock client believes it has on its keys, and the two things it does with them
 * besides working: the watchdog's renewals and the release. Three moments, on two clocks the
 * compiler keeps apart: when the current try began and when the lease runs out are on the
 * process's own clock (the client can only judge its lease by the clock it has, which drifts and
 * jumps); when it got all its keys, where a maxHold cap counts from, is kernel time, as a real
 * watchdog measures elapsed time on a monotonic clock, so a wall-clock jump back cannot stretch
 * the cap (measured on the local clock, a jump of -28 s kept a wedge alive 28 s longer).
 */
export class HeldLease {
  private tryStartLocal: LocalClockMs = localTime(0);
  private deadlineLocal: LocalClockMs = localTime(0);
  private heldSinceMs: SimTimeMs = simTime(0);

  constructor(
    private readonly sim: Sim,
    private readonly process: Process,
    private readonly recipe: Recipe,
    private readonly spec: Pick<ClientSpec, 'ttlMs' | 'maxHoldMs'>,
  ) {}

  private get id(): string {
    return this.process.id;
  }

  /** A try for the first key goes out now. */
  tryStarted(): void {
    this.tryStartLocal = this.process.localNow();
  }

  /**
   * The last key was granted with `result`. A lease counts from the try's start (the key may have
   * been set as it went out); a Redlock validity from now, since the elapsed time is already taken off it.
   */
  allTaken(result: Granted): void {
    const { validityMs, leaseMs } = result;
    const now = this.process.localNow();
    this.deadlineLocal = localTime(
      validityMs !== undefined ? now + validityMs : this.tryStartLocal + (leaseMs ?? Infinity),
    );
    this.heldSinceMs = this.sim.now;
  }

  /** How much of the lease is left by this process's clock. */
  leftMs(): number {
    return this.deadlineLocal - this.process.localNow();
  }

  /** The maxHold cap, once the keys have been held that long; null before (or without a cap). */
  capReached(): number | null {
    const cap = this.spec.maxHoldMs;
    return cap !== undefined && this.sim.now - this.heldSinceMs >= cap ? cap : null;
  }

  /** The watchdog's round: extends every key in turn and reports the first failure. */
  renew(held: readonly string[], done: (outcome: RenewOutcome) => void): void {
    const keys = [...held];
    const sentLocal = this.process.localNow();
    const { ttlMs } = this.spec;
    const next = (i: number): void => {
      if (i >= keys.length) {
        this.deadlineLocal = localTime(sentLocal + ttlMs);
        return done({ type: 'RENEWED' });
      }
      this.recipe.renew(keys[i]!, (result) => {
        if (result === 'renewed') {
          this.sim.record('lock.renewed', this.id, { key: keys[i]!, ttlMs });
          return next(i + 1);
        }
        done({ type: 'RENEW_FAILED', definite: result === 'lost', leaseLeftMs: this.leftMs() });
      });
    };
    next(0);
  }

  /** Releases `held`, last taken first, each `entries` times (a reentrant lock once per entry). */
  release(held: readonly string[], entries: number, done: () => void): void {
    const keys = [...held].reverse();
    const releaseKey = (i: number, remaining: number, deleted: boolean): void => {
      if (i >= keys.length) return done();
      const key = keys[i]!;
      this.recipe.release(key, (ok) => {
        if (remaining > 1) return releaseKey(i, remaining - 1, deleted || ok);
        this.sim.record('lock.released', this.id, { key, deleted: deleted || ok });
        releaseKey(i + 1, entries, false);
      });
    };
    releaseKey(0, entries, false);
  }
}
