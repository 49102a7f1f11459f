import { beforeAll, describe, expect, it } from 'vitest';
import type { ExploreResult } from '../../check/explorer';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { parseScenario } from '../../scenario/text/parse';
import { loadScriptEngine } from '../../scenario/running/run';
import { loadTestScripts } from '../../testing/testKit';
import { startSearch, type Clock, type SearchOutcome, type SearchProgress } from './coordinator';
import { createExplorerApi, type ExploreJob } from './explorerApi';
import { ExplorerPool, inProcessExplorer, type ExplorerHandle, type ExplorerWorkerApi } from './pool';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<never>(() => {});

/** A stand-in job: the fake workers ignore it. */
const JOB = { scenario: {}, options: { invariant: 'single-writer' } } as unknown as ExploreJob;

interface Fake {
  pool: ExplorerPool;
  searched: number[];
  shrunk: [number, number][];
  started: () => number;
  terminated: () => number;
}

/**
 * Workers that "break" at the given indices, each batch taking a random few milliseconds
 * (so workers finish out of order), or hanging when `hang(from, attempt)` says so. Every
 * seventh run is one a budget cut short (SearchSummary.cut).
 */
function fakePool(
  size: number,
  failing: readonly number[],
  hang: (from: number, attempt: number) => boolean = () => false,
  slow: (from: number) => number = () => 0,
): Fake {
  const searched: number[] = [];
  const shrunk: [number, number][] = [];
  const attempts = new Map<number, number>();
  let started = 0;
  let terminated = 0;
  let jitter = 7;
  const start = (): ExplorerHandle => {
    started++;
    const api: ExplorerWorkerApi = {
      ready: () => Promise.resolve(),
      plan: () => Promise.resolve({ kinds: ['pause'], maxFaults: 3, baseSeed: 7 }),
      exhaustPlan: () => Promise.reject(new Error('the random search never exhausts')),
      exhaustRange: () => Promise.reject(new Error('the random search never exhausts')),
      search: async (_job, from, to) => {
        const attempt = (attempts.get(from) ?? 0) + 1;
        attempts.set(from, attempt);
        if (hang(from, attempt)) return never();
        jitter = (jitter * 31 + 11) % 17;
        await sleep(slow(from) || jitter % 5);
        let cut = 0;
        for (let i = from; i < to; i++) {
          searched.push(i);
          if (i % 7 === 0) cut++;
          if (failing.includes(i)) return { failing: i, runs: i - from + 1, cut };
        }
        return { failing: null, runs: to - from, cut };
      },
      shrink: (_job, index, runs) => {
        shrunk.push([index, runs]);
        return Promise.resolve({ found: true, index, runs } as ExploreResult);
      },
    };
    return { api, terminate: () => void terminated++ };
  };
  return {
    pool: new ExplorerPool(start, size),
    searched,
    shrunk,
    started: () => started,
    terminated: () => terminated,
  };
}

/** Wall time that moves only when everything waits, to the next timer: a batch takes exactly the time it is given. */
class VirtualClock implements Clock {
  private nowMs = 0;
  private seq = 0;
  private timers: { at: number; seq: number; run: () => void }[] = [];
  now(): number {
    return this.nowMs;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const timer = { at: this.nowMs + ms, seq: this.seq++, run };
    this.timers.push(timer);
    return timer;
  }
  clearTimeout(timer: unknown): void {
    this.timers = this.timers.filter((t) => t !== timer);
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }
  /** Awaits `promise`, moving time on whenever nothing else can happen. */
  async settle<T>(promise: Promise<T>): Promise<T> {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (;;) {
      // One turn of the event loop runs every promise continuation that is ready.
      await new Promise((resolve) => setImmediate(resolve));
      if (done) return promise;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error('nothing left to wait for');
      this.nowMs = next.at;
      next.run();
    }
  }
}

/**
 * Workers that take `msPerRun` of virtual time a run and break nowhere; `ends[i]` is when worker
 * i answered its last batch, `batches` the size of every batch handed out, in order.
 */
function pacedPool(
  size: number,
  clock: VirtualClock,
  msPerRun: number,
): { pool: ExplorerPool; ends: number[]; batches: number[] } {
  const ends: number[] = [];
  const batches: number[] = [];
  let started = 0;
  const start = (): ExplorerHandle => {
    const slot = started++;
    const api: ExplorerWorkerApi = {
      ready: () => Promise.resolve(),
      plan: () => Promise.resolve({ kinds: ['pause'], maxFaults: 3, baseSeed: 7 }),
      exhaustPlan: () => Promise.reject(new Error('the random search never exhausts')),
      exhaustRange: () => Promise.reject(new Error('the random search never exhausts')),
      search: async (_job, from, to) => {
        batches.push(to - from);
        await clock.sleep((to - from) * msPerRun);
        ends[slot] = clock.now();
        return { failing: null, runs: to - from, cut: 0 };
      },
      shrink: () => Promise.reject(new Error('nothing to shrink')),
    };
    return { api, terminate: () => {} };
  };
  return { pool: new ExplorerPool(start, size), ends, batches };
}

describe('the explorer coordinator', () => {
  it('has equally fast workers finish a search that finds nothing within one small batch of each other', async () => {
    const msPerRun = 1;
    for (const budget of [1000, 2000, 3000, 3077]) {
      const clock = new VirtualClock();
      const { pool, ends } = pacedPool(2, clock, msPerRun);
      const outcome = await clock.settle(startSearch(pool, JOB, { budget, clock }).outcome);
      expect(outcome.state).toBe('not-found');
      // A small batch is the first one (4 runs): neither worker idles through the other's last full batch.
      expect(Math.abs(ends[0]! - ends[1]!), `budget ${budget}`).toBeLessThanOrEqual(4 * msPerRun);
      if (outcome.state === 'not-found')
        expect(outcome.elapsedMs, `budget ${budget}`).toBeLessThanOrEqual((budget / 2 + 4) * msPerRun);
    }
  });

  it('gives a lone worker batches that only grow: it has no one to finish with, so its tail is not cut up', async () => {
    const clock = new VirtualClock();
    const { pool, batches } = pacedPool(1, clock, 0.1);
    const outcome = await clock.settle(startSearch(pool, JOB, { budget: 3000, clock }).outcome);
    expect(outcome.state).toBe('not-found');
    // Every batch but the last (cut by the budget) is at least as big as the one before it.
    for (let i = 1; i < batches.length - 1; i++) expect(batches[i]!).toBeGreaterThanOrEqual(batches[i - 1]!);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(3000);
  });

  it('reaches batches of the target length within a few round trips, each one a wait with the worker idle', async () => {
    const clock = new VirtualClock();
    // 10 runs a millisecond: the default 150 ms target fits 1,500 runs.
    const { pool, batches } = pacedPool(1, clock, 0.1);
    await clock.settle(startSearch(pool, JOB, { budget: 6000, clock }).outcome);
    expect(batches.slice(0, 4)).toEqual([4, 32, 256, 1500]);
  });

  it('answers the lowest failing index whatever the number of workers', async () => {
    for (const size of [1, 2, 3, 5]) {
      const fake = fakePool(size, [90, 37, 412]);
      const outcome = await startSearch(fake.pool, JOB, { budget: 1000, batchTargetMs: 2 }).outcome;
      expect(outcome.state, `${size} workers`).toBe('found');
      // Shrunk once, the schedule at index 37, reported as found in 38 runs.
      expect(fake.shrunk, `${size} workers`).toEqual([[37, 38]]);
      // Every index below the answer was searched.
      for (let i = 0; i < 37; i++) expect(fake.searched).toContain(i);
    }
  });

  it('waits for a slow batch below a failing index found first', async () => {
    // Runs 4–7 take long on worker 2; worker 1 meanwhile finds run 9 breaking. Run 6 is the answer.
    const fake = fakePool(2, [6, 9], undefined, (from) => (from === 4 ? 60 : 0));
    const outcome = await startSearch(fake.pool, JOB, { budget: 1000 }).outcome;
    expect(outcome.state).toBe('found');
    expect(fake.searched).toContain(9);
    expect(fake.shrunk).toEqual([[6, 7]]);
  });

  it('searches the whole budget once when nothing breaks, and reports progress as it goes', async () => {
    const fake = fakePool(2, []);
    const progress: SearchProgress[] = [];
    const outcome = await startSearch(fake.pool, JOB, { budget: 300, onProgress: (p) => progress.push(p) }).outcome;
    expect(outcome.state).toBe('not-found');
    if (outcome.state !== 'not-found') return;
    // Runs 0, 7, 14, ... 294 were cut short: 43 of the 300, counted whichever worker ran them.
    expect(outcome.result.summary).toMatchObject({ runs: 300, kinds: ['pause'], maxFaults: 3, cut: 43 });
    expect([...fake.searched].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.map((p) => p.runsDone)).toEqual([...progress.map((p) => p.runsDone)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ runsDone: 300, budget: 300 });
  });

  it('stops at once, terminating the workers; the next search starts fresh ones', async () => {
    const fake = fakePool(2, [], (from) => from >= 8);
    const search = startSearch(fake.pool, JOB, { budget: 1000 });
    await sleep(20);
    search.stop();
    const outcome = await search.outcome;
    expect(outcome.state).toBe('stopped');
    expect(fake.terminated()).toBe(2);
    // The same pool starts workers again on its next use.
    const before = fake.started();
    const again = await startSearch(fake.pool, JOB, { budget: 5 }).outcome;
    expect(again.state).toBe('not-found');
    expect(fake.started()).toBeGreaterThan(before);
  });

  it('replaces a worker whose batch does not answer in time, says so, and still finds the same answer', async () => {
    const fake = fakePool(2, [37], (from, attempt) => from === 8 && attempt === 1);
    const notices: string[] = [];
    const outcome = await startSearch(fake.pool, JOB, {
      budget: 1000,
      batchBudgetMs: 100,
      onNotice: (m) => notices.push(m),
    }).outcome;
    expect(outcome.state).toBe('found');
    expect(fake.shrunk).toEqual([[37, 38]]);
    expect(fake.terminated()).toBe(1);
    expect(notices).toEqual([
      expect.stringMatching(/^A batch \(runs 9–\d+\) did not answer within 0\.1 s: its worker was replaced/),
    ]);
  });

  it('ends the search with a clear message when the same batch overruns twice', async () => {
    const fake = fakePool(1, [], (from) => from === 4);
    const outcome = await startSearch(fake.pool, JOB, { budget: 1000, batchBudgetMs: 50 }).outcome;
    expect(outcome).toEqual({
      state: 'failed',
      message: expect.stringContaining('did not answer within 0.05 s twice'),
    });
  });
});

describe('the explorer on real workers (in-process)', () => {
  let scripts: ScriptEngine;
  beforeAll(async () => {
    await loadTestScripts();
    scripts = await loadScriptEngine();
  });

  it('gives the identical answer with 1 and 2 workers', async () => {
    const parsed = parseScenario(
      `
id: turns
title: Two baristas take turns
seed: 7
clients:
  - { id: A, recipe: lease-with-token, ttl: 5s, work: 2s }
  - { id: B, recipe: lease-with-token, ttl: 5s, work: 2s, startAt: 1s }
resource: { id: espresso }
`,
      { file: 'turns.yaml', line: 1 },
    );
    if (!parsed.ok) throw new Error('fixture');
    const job: ExploreJob = {
      scenario: parsed.scenario,
      options: { invariant: 'single-writer', explorerSeed: 5, kinds: ['pause', 'partition', 'message-loss'] },
    };
    const answers: SearchOutcome[] = [];
    for (const size of [1, 2]) {
      const pool = new ExplorerPool(() => inProcessExplorer(createExplorerApi(scripts)), size);
      answers.push(await startSearch(pool, job, { budget: 400, batchTargetMs: 5 }).outcome);
    }
    expect(answers[0]!.state).toBe('found');
    const strip = (o: (typeof answers)[number]) => (o.state === 'found' ? o.result : o);
    expect(strip(answers[1]!)).toEqual(strip(answers[0]!));
  });
});
