import * as Comlink from 'comlink';
import type { Scenario } from '../../scenario/schema/schema';
import type { ConsoleRead } from '../player/consoleRead';
import type { Inspection } from '../player/inspect';
import type { ComputedRun, RunConfig } from '../player/runModel';
import { JobQueue, PROGRESS_MESSAGE, type JobOutcome, type SimulatorHandle, type WorkerApi } from './jobQueue';
import type { SimulationApi } from './simulationApi';
import { unpackRun, type RunParcel } from './runParcel';

/** Wall time one run, inspection or read may compute without moving on before the watchdog stops it. */
export const RUN_BUDGET_MS = 4000;

/** One player's view of the simulator: its scenario is fixed, and its jobs supersede only each other. */
export interface PlayerSimulator {
  run(config: RunConfig): Promise<JobOutcome<ComputedRun>>;
  /**
   * A run shown while the learner drags a mark: its own lane, so it never supersedes a change's
   * run still computing (nor one of those supersedes it).
   */
  preview(config: RunConfig): Promise<JobOutcome<ComputedRun>>;
  inspect(config: RunConfig, cursor: number, playheadMs: number): Promise<JobOutcome<Inspection>>;
  /** The console's reads, each answered at its moment of this run (see consoleRead.ts). */
  read(config: RunConfig, reads: ConsoleRead[]): Promise<JobOutcome<(string[] | null)[]>>;
}

let lanes = 0;

/** A run's outcome with its events unpacked on the page (see runParcel.ts). */
async function unpacked(submitted: Promise<JobOutcome<RunParcel>>): Promise<JobOutcome<ComputedRun>> {
  const outcome = await submitted;
  return outcome.ok ? { ok: true, value: await unpackRun(outcome.value) } : outcome;
}

/** A player's simulator on a job queue: each kind of job has its own lane per player. */
export function playerSimulator(queue: JobQueue, scenario: Scenario): PlayerSimulator {
  const lane = `player-${++lanes}`;
  return {
    run: (config) => unpacked(queue.submit(`${lane}:run`, 'run', scenario, config)),
    preview: (config) => unpacked(queue.submit(`${lane}:preview`, 'run', scenario, config)),
    inspect: (config, cursor, playheadMs) =>
      queue.submit(`${lane}:inspect`, 'inspect', scenario, config, cursor, playheadMs),
    read: (config, reads) => queue.submit(`${lane}:read`, 'read', scenario, config, reads),
  };
}

/** A simulator in a dedicated Web Worker (the page's); Comlink leaves its progress messages alone. */
function startWorker(progressed: () => void): SimulatorHandle {
  const worker = new Worker(new URL('./simulationWorker.ts', import.meta.url), {
    type: 'module',
    name: 'lockstep-simulator',
  });
  worker.addEventListener('message', (event: MessageEvent) => event.data === PROGRESS_MESSAGE && progressed());
  return { api: Comlink.wrap<WorkerApi>(worker) as unknown as WorkerApi, terminate: () => worker.terminate() };
}

let pageQueue: JobQueue | null = null;

/**
 * The page's simulator queue: one worker for every player on the page (a lesson can hold
 * several), started on first use and replaced whenever the watchdog kills it.
 */
function queue(): JobQueue {
  pageQueue ??= new JobQueue({ start: startWorker, budgetMs: RUN_BUDGET_MS });
  return pageQueue;
}

/** One player's simulator on the page's worker. */
export function pageSimulator(scenario: Scenario): PlayerSimulator {
  return playerSimulator(queue(), scenario);
}

/** Starts the page's worker and its Lua VM now, so the first run does not wait for them. */
export function warmSimulator(): void {
  queue().warm();
}

/** Starts the page's worker thread now, without loading the Lua VM or the simulator yet. */
export function spawnSimulator(): void {
  queue().spawn();
}

/** The simulator in this thread (Node tests): same answers, no watchdog. */
export function inProcessQueue(api: SimulationApi): JobQueue {
  const asAsync: WorkerApi = {
    ready: () => Promise.resolve(),
    run: (...args) => Promise.resolve(api.run(...args)),
    inspect: (...args) => Promise.resolve(api.inspect(...args)),
    read: (...args) => Promise.resolve(api.read(...args)),
  };
  return new JobQueue({ start: () => ({ api: asAsync, terminate: () => {} }), budgetMs: 60_000 });
}
