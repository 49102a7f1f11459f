import { describe, expect, it } from 'vitest';
import type { JobOutcome } from '../worker/jobQueue';
import type { PlayerSimulator } from '../worker/playerSimulator';
import { createPlayerStore } from './playerStore';
import { firstRunOf, settledFirstRun, withFirstRun } from './firstRuns';
import type { ComputedRun, RunConfig } from './runModel';
import { simTime } from '../../sim/time';

const asWritten: RunConfig = { seed: 7, fencing: false, actions: [] };
const shipped: ComputedRun = { events: [], verdicts: [], traceHash: 'shipped', ended: 'idle' };

/** A worker stand-in that answers every run with its seed and records what it was asked. */
function worker() {
  const asked: RunConfig[] = [];
  const simulator = {
    run: (config: RunConfig) => {
      asked.push(config);
      return Promise.resolve<JobOutcome<ComputedRun>>({
        ok: true,
        value: { events: [], verdicts: [], traceHash: `worker-${config.seed}`, ended: 'idle' },
      });
    },
    preview: () => Promise.resolve({ ok: false, why: 'superseded' }),
    inspect: () => Promise.resolve({ ok: false, why: 'superseded' }),
    read: () => Promise.resolve({ ok: false, why: 'superseded' }),
  } as PlayerSimulator;
  return { asked, simulator };
}

const hashOf = async (outcome: Promise<JobOutcome<ComputedRun>>) => {
  const o = await outcome;
  return o.ok ? o.value.traceHash : o.why;
};

describe('a player whose first run was shipped with the lesson', () => {
  it('shows the shipped run first without asking the worker, and asks the worker for every later run, the same one included', async () => {
    const { asked, simulator } = worker();
    const player = withFirstRun(simulator, Promise.resolve(shipped), asWritten);
    expect(await hashOf(player.run(asWritten))).toBe('shipped');
    expect(asked).toEqual([]);
    const paused = { ...asWritten, actions: [{ at: simTime(1000), do: 'pause' as const, target: 'A', forMs: 500 }] };
    expect(await hashOf(player.run(paused))).toBe('worker-7');
    // Undoing the change goes back to the scenario as written: the worker computes it this time.
    expect(await hashOf(player.run(asWritten))).toBe('worker-7');
    expect(asked).toEqual([paused, asWritten]);
  });

  it('asks the worker when the first run is another one (a share link) or when the build shipped none', async () => {
    const link = worker();
    const fromLink = withFirstRun(link.simulator, Promise.resolve(shipped), asWritten);
    expect(await hashOf(fromLink.run({ ...asWritten, seed: 8 }))).toBe('worker-8');
    expect(await hashOf(fromLink.run(asWritten))).toBe('worker-7');

    // A story changed (the scripted pause shortened) is another run too, though its actions are the same.
    const edited = worker();
    const changed = { ...asWritten, edits: [{ edit: 'resize' as const, mark: 0, lengthMs: 5000 }] };
    expect(await hashOf(withFirstRun(edited.simulator, Promise.resolve(shipped), asWritten).run(changed))).toBe(
      'worker-7',
    );
    expect(edited.asked).toEqual([changed]);

    const none = worker();
    expect(await hashOf(withFirstRun(none.simulator, Promise.resolve(null), asWritten).run(asWritten))).toBe(
      'worker-7',
    );
    expect(none.asked).toEqual([asWritten]);
  });
});

describe('a player mounting once its shipped run is here', () => {
  it('gets the same promise on every render, and reads what it settled to without waiting', async () => {
    const run = firstRunOf('ground-rules', 'first');
    expect(firstRunOf('ground-rules', 'first')).toBe(run);
    expect(settledFirstRun(run)).toBeUndefined();
    // `vite dev` and the tests ship no runs: it settles to "none shipped".
    await run;
    expect(settledFirstRun(run)).toBeNull();
  });

  it('shows a run it is handed from its first frame, without asking the worker for it', async () => {
    const { asked, simulator } = worker();
    const scenario = { seed: 7, resource: { fencing: false }, controls: [] } as unknown as Parameters<
      typeof createPlayerStore
    >[0];
    const run: ComputedRun = {
      events: [
        { id: 0, at: 0 },
        { id: 1, at: 900 },
      ] as unknown as ComputedRun['events'],
      verdicts: [],
      traceHash: 'shipped',
      ended: 'idle',
    };
    const store = createPlayerStore(scenario, simulator, undefined, run);
    expect(store.getState()).toMatchObject({
      traceHash: 'shipped',
      computing: false,
      requested: null,
      cursor: 0,
      playheadMs: 0,
    });
    expect(store.getState().events).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([]);
  });
});
