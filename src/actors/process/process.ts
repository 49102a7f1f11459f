import type { FrozenTask, Owner } from '../../sim/kernel';
import type { Sim } from '../../sim/sim';
import { localTime, simTime, type LocalClockMs, type SimTimeMs } from '../../sim/time';

/**
 * One life of a process, as the kernel's owner of its tasks. A class rather than an object of
 * closures: every process of every run makes one, and a sweep makes thousands of runs.
 */
class Life implements Owner {
  readonly id: string;

  constructor(private readonly process: Process) {
    this.id = process.id;
  }

  disposition(): 'run' | 'freeze' | 'drop' {
    const process = this.process;
    if (process.crashed || process.owner !== this) return 'drop';
    return process.paused ? 'freeze' : 'run';
  }

  freeze(task: FrozenTask): void {
    this.process.hold(task);
  }
}

/** Work in progress on a process: when it will be done, and its current place on the agenda. */
interface Computation {
  /** Kernel time, not the process's clock: work takes the same true time however the clock drifts. */
  doneAt: SimTimeMs;
  handle: number;
  readonly run: () => void;
}

/**
 * A process in the simulated world: a client, a Redis node or a resource. It owns the
 * callbacks scheduled for it, so the kernel can hold them while it is paused and drop them when
 * it has crashed. A pause is stop-the-world (a GC pause, SIGSTOP, a frozen VM), and behaves as
 * one does on a real runtime: nothing runs during it; a timer keeps its deadline on the
 * monotonic clock, so every timer (a sleep, a timeout, the watchdog's next renewal) that fell
 * due during the pause fires as soon as the process runs again, in deadline order, with the
 * messages that arrived in the meantime; work in progress (`compute`) makes no progress while
 * paused and needs what was left of it after the resume. It also has its own clock, which can
 * drift and jump independently of the kernel's true time. See src/sim/README.md.
 */
export class Process {
  paused = false;
  crashed = false;
  /** When the current pause began, in kernel time (a pause lasts true time, whatever the clock says). */
  private pausedAt: SimTimeMs = simTime(0);
  private frozen: FrozenTask[] = [];
  /** Work in progress by id (`compute`), moved later by each pause. */
  private readonly computations = new Map<number, Computation>();
  private nextComputation = 1;
  private resumeHandle: number | null = null;
  /** How far this process's clock is from true time, from jumps. */
  private offsetMs = 0;

  /** What the actors on this process do when it crashes, restarts or has its clock jumped. */
  private readonly crashHooks: (() => void)[] = [];
  private readonly restartHooks: (() => void)[] = [];
  private readonly clockJumpHooks: (() => void)[] = [];

  constructor(
    readonly sim: Sim,
    readonly id: string,
    /** Parts per million this clock runs fast (positive) or slow (negative). */
    readonly driftPpm = 0,
  ) {}

  /**
   * The current life of this process: the owner of everything scheduled for it. A crash ends
   * the life, so work scheduled before the crash never runs in the restarted process.
   */
  owner: Owner = this.newLife();

  private newLife(): Owner {
    return new Life(this);
  }

  /** Holds a callback that came due while this process was paused, until it resumes. */
  hold(task: FrozenTask): void {
    this.frozen.push(task);
  }

  /** What this process's clock reads now. */
  localNow(): LocalClockMs {
    return this.localAt(this.sim.now);
  }

  /**
   * What this process's clock will read at true time `t` (now or later), if nothing jumps it
   * before then: the inspector reads clocks between events this way.
   */
  localAt(t: SimTimeMs): LocalClockMs {
    return localTime(t + this.offsetMs + Math.floor((t * this.driftPpm) / 1e6));
  }

  /** How much true time passes while this process's clock advances `localMs`. */
  toSimDurationMs(localMs: number): number {
    return this.driftPpm === 0 ? localMs : (localMs * 1e6) / (1e6 + this.driftPpm);
  }

  /** The true time at which this clock will first read more than `local`. */
  simTimeWhenLocalPasses(local: LocalClockMs): SimTimeMs {
    const t = (local - this.offsetMs) / (1 + this.driftPpm / 1e6);
    return simTime(Math.max(this.sim.now, Math.floor(t) + 1));
  }

  /**
   * Schedules `run(arg)` after `localMs` as this process's own clock measures it: a sleep or a
   * timeout, whose deadline a pause does not move. Cancel it with `sim.kernel.cancel`.
   */
  setTimer<A = undefined>(localMs: number, run: (arg: A) => void, arg?: A): number {
    return this.sim.kernel.schedule(this.toSimDurationMs(localMs), this.owner, run, undefined, arg);
  }

  /**
   * Starts work that takes `localMs` of this process's running time, then runs `run`: a pause
   * stops it where it is, so it ends that much later. Returns an id for `cancelCompute`.
   */
  compute(localMs: number, run: () => void): number {
    const delayMs = Math.ceil(this.toSimDurationMs(localMs));
    const id = this.nextComputation++;
    const work: Computation = { doneAt: simTime(this.sim.now + delayMs), handle: 0, run };
    this.computations.set(id, work);
    work.handle = this.sim.kernel.schedule(delayMs, this.owner, this.finishComputation, undefined, id);
    return id;
  }

  /** Stops work started by `compute` (a lost lease ends the job); a finished one is ignored. */
  cancelCompute(id: number): void {
    const work = this.computations.get(id);
    if (work === undefined) return;
    this.computations.delete(id);
    this.sim.kernel.cancel(work.handle);
  }

  private readonly finishComputation = (id: number): void => {
    const work = this.computations.get(id)!;
    this.computations.delete(id);
    work.run();
  };

  /** Stop-the-world pause; with `forMs` it resumes by itself. */
  pause(forMs: number | null): void {
    if (this.crashed) return;
    if (!this.paused) {
      this.paused = true;
      this.pausedAt = this.sim.now;
    }
    this.sim.record('process.pause', this.id, { forMs });
    if (this.resumeHandle !== null) this.sim.kernel.cancel(this.resumeHandle);
    this.resumeHandle =
      forMs === null
        ? null
        : this.sim.kernel.schedule(forMs, null, () => {
            this.resumeHandle = null; // it is running now: nothing left to cancel
            this.resume();
          });
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.resumeHandle !== null) this.sim.kernel.cancel(this.resumeHandle);
    this.resumeHandle = null;
    this.sim.record('process.resume', this.id, {});
    const kernel = this.sim.kernel;
    const now = this.sim.now;
    const pausedForMs = now - this.pausedAt;
    // Work in progress lost the pause: take it off the agenda (or out of what is held) first...
    for (const work of this.computations.values()) kernel.cancel(work.handle);
    // ...then everything that fell due during the pause runs now, in the order it fell due...
    const frozen = this.frozen;
    this.frozen = [];
    kernel.thaw(this.owner, frozen);
    // ...and the work goes on for what was left of it.
    for (const [id, work] of this.computations) {
      work.doneAt = simTime(work.doneAt + pausedForMs);
      work.handle = kernel.schedule(work.doneAt - now, this.owner, this.finishComputation, undefined, id);
    }
  }

  /**
   * Adds what to do when this process crashes; onRestart and onClockJump likewise. Hooks run in
   * the order added. They are handed over as arguments, not assigned (`process.onCrash = () =>
   * ...`): V8 allocates a function literal assigned to a property straight into the old
   * generation, expecting a long-lived method, and each such closure kept its whole run (actor,
   * Sim, trace) alive through every young collection until the next full one. The explorer
   * makes thousands of runs a second, and copying them was much of its garbage collection.
   */
  onCrash(hook: () => void): void {
    this.crashHooks.push(hook);
  }

  onRestart(hook: () => void): void {
    this.restartHooks.push(hook);
  }

  onClockJump(hook: () => void): void {
    this.clockJumpHooks.push(hook);
  }

  /** Loses all in-memory state; everything scheduled for it is dropped. */
  crash(): void {
    if (this.crashed) return;
    this.crashed = true;
    this.paused = false;
    // Messages that waited for the pause to end are lost with the process's memory.
    const frozen = this.frozen;
    this.frozen = [];
    this.computations.clear(); // the crash ends this life: its work is dropped with the rest
    this.sim.record('process.crash', this.id, {});
    for (const task of frozen) (task.dropped as ((arg: unknown) => void) | undefined)?.(task.arg);
    if (this.resumeHandle !== null) this.sim.kernel.cancel(this.resumeHandle);
    this.resumeHandle = null;
    for (const hook of this.crashHooks) hook();
  }

  restart(): void {
    if (!this.crashed) return;
    this.crashed = false;
    this.owner = this.newLife();
    this.sim.record('process.restart', this.id, {});
    for (const hook of this.restartHooks) hook();
  }

  jumpClock(byMs: number): void {
    this.offsetMs += byMs;
    this.sim.record('clock.jump', this.id, { byMs });
    for (const hook of this.clockJumpHooks) hook();
  }
}
