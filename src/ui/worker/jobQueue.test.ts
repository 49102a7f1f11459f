import { describe, expect, it } from 'vitest';
import { JobQueue, type SimulatorHandle, type WorkerApi } from './jobQueue';
import type { ComputedRun, RunConfig } from '../player/runModel';
import type { Scenario } from '../../scenario/schema/schema';

const scenario = { id: 's' } as Scenario;
const config = (seed: number): RunConfig => ({ seed, fencing: false, actions: [] });
const run = (hash: string): ComputedRun => ({ events: [], verdicts: [], traceHash: hash, ended: 'idle' });

/**
 * Fake simulators: a run with seed 0 never answers (a runaway that only the watchdog ends);
 * any other seed answers after `seed` ms with its own hash. Records which simulator ran what.
 */
function fakes() {
  const started: { terminated: boolean; ran: number[] }[] = [];
  const start = (): SimulatorHandle => {
    const me = { terminated: false, ran: [] as number[] };
    started.push(me);
    const api = {
      ready: () => Promise.resolve(),
      run: (_s: Scenario, c: RunConfig) => {
        me.ran.push(c.seed);
        return c.seed === 0
          ? new Promise<ComputedRun>(() => {})
          : new Promise<ComputedRun>((resolve) => setTimeout(() => resolve(run(`h${c.seed}`)), c.seed));
      },
    } as unknown as WorkerApi;
    return { api, terminate: () => void (me.terminated = true) };
  };
  return { started, start };
}

describe('the simulator job queue', () => {
  it('stops a job that overruns its budget, replaces the simulator, and runs the next job on the new one', async () => {
    const { started, start } = fakes();
    const queue = new JobQueue({ start, budgetMs: 60 });
    const t0 = Date.now();
    const [runaway, next] = [
      queue.submit('a', 'run', scenario, config(0)),
      queue.submit('b', 'run', scenario, config(5)),
    ];
    expect(await runaway).toEqual({ ok: false, why: 'stopped', budgetMs: 60 });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await next).toEqual({ ok: true, value: run('h5') });
    expect(started.map((s) => [s.terminated, s.ran])).toEqual([
      [true, [0]],
      [false, [5]],
    ]);
  });

  it('lets a newer job in the same lane supersede the waiting and the running ones; other lanes keep theirs', async () => {
    const { start } = fakes();
    const queue = new JobQueue({ start, budgetMs: 1000 });
    const first = queue.submit('a', 'run', scenario, config(20));
    const other = queue.submit('b', 'run', scenario, config(1));
    const waiting = queue.submit('a', 'run', scenario, config(2));
    const latest = queue.submit('a', 'run', scenario, config(3));
    expect(await first).toEqual({ ok: false, why: 'superseded' });
    expect(await waiting).toEqual({ ok: false, why: 'superseded' });
    expect(await other).toEqual({ ok: true, value: run('h1') });
    expect(await latest).toEqual({ ok: true, value: run('h3') });
  });

  it('does not wait out a superseded runaway: its simulator is killed at once', async () => {
    const { started, start } = fakes();
    const queue = new JobQueue({ start, budgetMs: 10_000, abandonAfterMs: 20 });
    const runaway = queue.submit('a', 'run', scenario, config(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t0 = Date.now();
    const fixed = queue.submit('a', 'run', scenario, config(4));
    expect(await runaway).toEqual({ ok: false, why: 'superseded' });
    expect(await fixed).toEqual({ ok: true, value: run('h4') });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(started.map((s) => s.terminated)).toEqual([true, false]);
  });

  it('spawns its simulator early without loading it, and the first job loads and uses that same one', async () => {
    const { started, start } = fakes();
    let readyCalls = 0;
    const counting = () => {
      const handle = start();
      const ready = handle.api.ready.bind(handle.api);
      handle.api.ready = () => (readyCalls++, ready());
      return handle;
    };
    const queue = new JobQueue({ start: counting, budgetMs: 1000 });
    queue.spawn();
    queue.spawn();
    expect([started.length, readyCalls]).toEqual([1, 0]);
    expect(await queue.submit('a', 'run', scenario, config(1))).toEqual({ ok: true, value: run('h1') });
    expect([started.length, readyCalls]).toEqual([1, 1]);
  });
});

describe('a simulator that does not start', () => {
  /** Simulators whose `ready` never settles while `hangs` says so; records each one started. */
  function starting(hangs: (n: number) => boolean) {
    const started: { terminated: boolean }[] = [];
    const start = (): SimulatorHandle => {
      const me = { terminated: false };
      const n = started.push(me);
      const api = {
        ready: () => (hangs(n) ? new Promise<void>(() => {}) : Promise.resolve()),
        run: (_s: Scenario, c: RunConfig) => Promise.resolve(run(`h${c.seed}`)),
      } as unknown as WorkerApi;
      return { api, terminate: () => void (me.terminated = true) };
    };
    return { started, start };
  }

  it('is replaced once by a fresh one, and the job runs there', async () => {
    const { started, start } = starting((n) => n === 1);
    const queue = new JobQueue({ start, budgetMs: 1000, startBudgetMs: 20 });
    expect(await queue.submit('a', 'run', scenario, config(1))).toEqual({ ok: true, value: run('h1') });
    expect(started.map((s) => s.terminated)).toEqual([true, false]);
  });

  it('twice: the job fails with a clear message, and the next job tries a fresh one', async () => {
    const { started, start } = starting((n) => n <= 2);
    const queue = new JobQueue({ start, budgetMs: 1000, startBudgetMs: 20 });
    expect(await queue.submit('a', 'run', scenario, config(1))).toEqual({
      ok: false,
      why: 'failed',
      message: 'the simulator did not start within 0.02 s, twice',
    });
    expect(started.map((s) => s.terminated)).toEqual([true, true]);
    expect(await queue.submit('a', 'run', scenario, config(2))).toEqual({ ok: true, value: run('h2') });
    expect(started).toHaveLength(3);
  });
});

describe('a long job that keeps moving on', () => {
  /** A simulator whose run of seed N takes N ms (for ever when N is 0), saying it moved on every 10 ms. */
  const steady = (progressed: () => void): SimulatorHandle => {
    let ticking: ReturnType<typeof setInterval> | undefined;
    const api = {
      ready: () => Promise.resolve(),
      run: (_s: Scenario, c: RunConfig) =>
        new Promise<ComputedRun>((resolve) => {
          ticking = setInterval(progressed, 10);
          if (c.seed > 0)
            setTimeout(() => {
              clearInterval(ticking);
              resolve(run(`h${c.seed}`));
            }, c.seed);
        }),
    } as unknown as WorkerApi;
    return { api, terminate: () => clearInterval(ticking) };
  };

  it('finishes long past the watchdog budget: a busy machine is not a runaway script', async () => {
    const queue = new JobQueue({ start: steady, budgetMs: 60 });
    expect(await queue.submit('a', 'run', scenario, config(300))).toEqual({ ok: true, value: run('h300') });
  });

  it('is stopped once it has computed for longer than the total budget, and the notice can say so', async () => {
    const queue = new JobQueue({ start: steady, budgetMs: 60, totalBudgetMs: 200 });
    const t0 = Date.now();
    expect(await queue.submit('a', 'run', scenario, config(0))).toEqual({
      ok: false,
      why: 'stopped',
      budgetMs: 200,
      whole: true,
    });
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
