import type { SimulationApi } from './simulationApi';

/** The simulator as the page reaches it: every call asynchronous, plus a wait for the Lua VM to load. */
export type WorkerApi = {
  [K in keyof SimulationApi]: (...args: Parameters<SimulationApi[K]>) => Promise<ReturnType<SimulationApi[K]>>;
} & {
  ready(): Promise<void>;
};

/** A running simulator that can be killed (a Web Worker, or an in-process stand-in in tests). */
export interface SimulatorHandle {
  api: WorkerApi;
  terminate(): void;
}

export type JobOutcome<T> =
  | { ok: true; value: T }
  /** A later job in the same lane replaced this one before it finished. */
  | { ok: false; why: 'superseded' }
  /**
   * The watchdog stopped it: one step of it computed for longer than `budgetMs` of wall time, or
   * (`whole`) the whole job computed for longer than its total budget, `budgetMs`.
   */
  | { ok: false; why: 'stopped'; budgetMs: number; whole?: true }
  | { ok: false; why: 'failed'; message: string };

/**
 * How long a fresh simulator may take to load before it is replaced (once): a few times what a
 * slow phone needs for the simulator's chunks, the WebAssembly and the Lua VM (about 2 s).
 */
export const START_BUDGET_MS = 10_000;

/**
 * What a simulator posts as its run moves on (every few thousand steps): the watchdog then knows
 * the job is not stuck, so a long run on a busy machine is not mistaken for a runaway one.
 */
export const PROGRESS_MESSAGE = 'lockstep:progress';

/** Wall time a job may take in all, however steadily it moves on (a few times a 200,000-event run on a slow phone). */
export const TOTAL_BUDGET_MS = 60_000;

export interface JobQueueOptions {
  /** Starts a fresh simulator (at first, and after the watchdog killed one); it calls `progressed` as a job moves on. */
  start(progressed: () => void): SimulatorHandle;
  /**
   * Wall time a job may compute without moving on (one step that does not end: a script the
   * engine cannot count) before its simulator is killed and replaced.
   */
  budgetMs: number;
  /** Wall time a job may take in all; TOTAL_BUDGET_MS by default. */
  totalBudgetMs?: number;
  /** Wall time a fresh simulator may take to load (the Lua VM is WebAssembly); START_BUDGET_MS by default. */
  startBudgetMs?: number;
  /**
   * A running job superseded after computing this long is not waited for: its simulator is
   * killed and replaced at once (a fresh one loads in well under the budget).
   */
  abandonAfterMs?: number;
}

type Method = keyof SimulationApi;

interface Job {
  lane: string;
  method: Method;
  args: unknown[];
  resolve(outcome: JobOutcome<unknown>): void;
}

/**
 * Runs simulator jobs one at a time, each under a wall-clock watchdog. A job that stops moving on
 * for its budget (a runaway script, a pattern that backtracks for a minute) gets its simulator
 * killed and replaced; a long run that keeps moving on, on a busy machine, is let finish (its
 * event budget bounds it); the jobs behind it run on the new one. Jobs come in lanes (one per player and
 * purpose): a new job supersedes the older ones still waiting in its lane, and the result of
 * one already running is dropped, so a learner's latest action is always the one computed.
 */
export class JobQueue {
  private handle: SimulatorHandle | null = null;
  private ready: Promise<JobOutcome<void>> | null = null;
  private readonly waiting: Job[] = [];
  private running:
    (Job & { superseded: boolean; startedAt: number; settle?: (outcome: JobOutcome<unknown>) => void }) | null = null;
  /** Restarts the running job's watchdog: its simulator said it moved on. */
  private progressed: (() => void) | null = null;

  constructor(private readonly options: JobQueueOptions) {}

  /** Queues `method(...args)` in `lane`. Never rejects: failures are outcomes. */
  submit<K extends Method>(
    lane: string,
    method: K,
    ...args: Parameters<SimulationApi[K]>
  ): Promise<JobOutcome<ReturnType<SimulationApi[K]>>> {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i]!.lane !== lane) continue;
      this.waiting[i]!.resolve({ ok: false, why: 'superseded' });
      this.waiting.splice(i, 1);
    }
    const running = this.running;
    if (running?.lane === lane) {
      running.superseded = true;
      if (running.settle && performance.now() - running.startedAt > (this.options.abandonAfterMs ?? 250)) {
        this.kill();
        running.settle({ ok: false, why: 'superseded' });
      }
    }
    return new Promise((resolve) => {
      this.waiting.push({ lane, method, args, resolve: resolve as Job['resolve'] });
      void this.pump();
    });
  }

  /** Starts a simulator ahead of the first job (a page that will surely need one). */
  warm(): void {
    void this.start();
  }

  /**
   * Creates the simulator without asking it to load anything: a worker thread takes a while to
   * start, and can do so while the page is still busy downloading what it shows first. `warm`,
   * or the first job, then makes it load (main.tsx).
   */
  spawn(): void {
    this.handle ??= this.startSimulator();
  }

  /** Kills the simulator; jobs still waiting are answered as superseded. */
  dispose(): void {
    for (const job of this.waiting.splice(0)) job.resolve({ ok: false, why: 'superseded' });
    this.kill();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const next = this.waiting.shift();
    if (!next) return;
    const job = { ...next, superseded: false, startedAt: 0 };
    this.running = job;
    const started = await this.start();
    const outcome = started.ok ? await this.call(job) : started;
    this.running = null;
    // A superseded job's answer, even a stop, is old news: the job that replaced it will say.
    job.resolve(job.superseded ? { ok: false, why: 'superseded' } : outcome);
    void this.pump();
  }

  /**
   * A live simulator, with its Lua VM loaded. One that has not started within the budget is
   * replaced once by a fresh one: a start can hang (a worker's chunk that never arrives), and a
   * learner should not wait out the budget twice before being told.
   */
  private start(): Promise<JobOutcome<void>> {
    if (!this.handle || !this.ready) {
      const budgetMs = this.options.startBudgetMs ?? START_BUDGET_MS;
      this.ready = this.startOnce(budgetMs)
        .then((first) => (first.ok || first.why !== 'stopped' ? first : this.startOnce(budgetMs)))
        .then((outcome) => {
          if (outcome.ok) return outcome;
          this.kill();
          return outcome.why !== 'stopped'
            ? outcome
            : { ok: false, why: 'failed', message: `the simulator did not start within ${budgetMs / 1000} s, twice` };
        });
    }
    return this.ready;
  }

  /** Starts (or reuses the spawned) simulator and waits for it to load; one that does not is terminated. */
  private startOnce(budgetMs: number): Promise<JobOutcome<void>> {
    const handle = this.handle ?? this.startSimulator();
    this.handle = handle;
    return this.watch(handle.api.ready(), budgetMs).then((outcome) => {
      if (!outcome.ok && this.handle === handle) {
        handle.terminate();
        this.handle = null;
      }
      return outcome;
    });
  }

  private startSimulator(): SimulatorHandle {
    return this.options.start(() => this.progressed?.());
  }

  private async call(job: NonNullable<JobQueue['running']>): Promise<JobOutcome<unknown>> {
    const api = this.handle!.api;
    job.startedAt = performance.now();
    const call = (api[job.method] as (...args: unknown[]) => Promise<unknown>)(...job.args);
    const outcome = await this.watch(
      call,
      this.options.budgetMs,
      (settle) => (job.settle = settle),
      (restart) => (this.progressed = restart),
    );
    this.progressed = null;
    if (!outcome.ok && outcome.why === 'stopped') this.kill();
    return outcome;
  }

  /**
   * Resolves with the promise's value, or as stopped once `budgetMs` has passed without the job
   * moving on (`onRestart` hands out what restarts that wait) or its total budget has passed.
   */
  private watch<T>(
    promise: Promise<T>,
    budgetMs: number,
    onSettle?: (settle: (outcome: JobOutcome<T>) => void) => void,
    onRestart?: (restart: () => void) => void,
  ): Promise<JobOutcome<T>> {
    return new Promise((resolve) => {
      const stop = () => resolve({ ok: false, why: 'stopped', budgetMs });
      const totalMs = Math.max(budgetMs, this.options.totalBudgetMs ?? TOTAL_BUDGET_MS);
      let stalled = setTimeout(stop, budgetMs);
      const total = setTimeout(() => resolve({ ok: false, why: 'stopped', budgetMs: totalMs, whole: true }), totalMs);
      const settle = (outcome: JobOutcome<T>) => {
        clearTimeout(stalled);
        clearTimeout(total);
        resolve(outcome);
      };
      onSettle?.(settle);
      onRestart?.(() => {
        clearTimeout(stalled);
        stalled = setTimeout(stop, budgetMs);
      });
      promise.then(
        (value) => settle({ ok: true, value }),
        (error: unknown) =>
          settle({ ok: false, why: 'failed', message: error instanceof Error ? error.message : String(error) }),
      );
    });
  }

  private kill(): void {
    this.handle?.terminate();
    this.handle = null;
    this.ready = null;
  }
}
