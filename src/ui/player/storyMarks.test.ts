import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadScenario } from '../../cli/loadScenario';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { loadScriptEngine } from '../../scenario/running/run';
import type { Scenario } from '../../scenario/schema/schema';
import { simTime } from '../../sim/time';
import { inProcessQueue, playerSimulator } from '../worker/playerSimulator';
import { createSimulationApi } from '../worker/simulationApi';
import { createPlayerStore } from './playerStore';
import { applyMarkChange, playerMarks } from './storyMarks';
import type { RunConfig } from './runModel';

let scripts: ScriptEngine;
let barista: Scenario;
let healing: Scenario;

beforeAll(async () => {
  scripts = await loadScriptEngine();
  const load = (ref: string) => {
    const loaded = loadScenario(ref);
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    return loaded.scenario;
  };
  barista = load('lessons/05-paused-barista.md#paused-barista');
  healing = load('lessons/08-renewals-watchdog.md#renewal-timeout-stop');
});

const plain = (): RunConfig => ({ seed: barista.seed, fencing: false, actions: [] });

async function newStore(scenario = barista) {
  const store = createPlayerStore(scenario, playerSimulator(inProcessQueue(createSimulationApi(scripts)), scenario));
  await store.getState().settled();
  return store;
}

const singleWriter = (store: Awaited<ReturnType<typeof newStore>>) =>
  store.getState().verdicts.find((v) => v.invariant === 'single-writer')!.holds;

describe('the marks on the lanes', () => {
  it("shows the scripted pause on A's lane with its length, and the learner's actions after it", () => {
    const config = { ...plain(), actions: [{ at: simTime(12_000), do: 'crash' as const, target: 'B' }] };
    expect(playerMarks(barista, config)).toEqual([
      {
        key: 'script:0',
        source: 'script',
        index: 0,
        name: 'pause A',
        atMs: 2000,
        lengthMs: 15_000,
        resizable: true,
        laneId: 'A',
      },
      {
        key: 'learner:0',
        source: 'learner',
        index: 0,
        name: 'crash B',
        atMs: 12_000,
        lengthMs: null,
        resizable: false,
        laneId: 'B',
      },
    ]);
  });

  it('puts a heal on the lane of the partition it ends', () => {
    expect(
      playerMarks(healing, { seed: 1, fencing: false, actions: [] }).map((m) => [m.name, m.laneId, m.lengthMs]),
    ).toEqual([
      ['partition', 'A', 1100],
      ['heal', 'A', null],
    ]);
  });

  it('turns a change of a scripted mark into a story edit, and of a learner mark into a changed action', () => {
    const config = { ...plain(), actions: [{ at: simTime(12_000), do: 'pause' as const, target: 'B', forMs: 3000 }] };
    expect(applyMarkChange(barista, config, { mark: 'script:0', change: 'resize', lengthMs: 5040 })!.edits).toEqual([
      { edit: 'resize', mark: 0, lengthMs: 5040 },
    ]);
    expect(applyMarkChange(barista, config, { mark: 'learner:0', change: 'move', toMs: 12_345 })!.actions).toEqual([
      { at: 12_345, do: 'pause', target: 'B', forMs: 3000 },
    ]);
    expect(applyMarkChange(barista, config, { mark: 'learner:0', change: 'remove' })!.actions).toEqual([]);
    // Nothing to do: a move to where the mark is, a length given to a crash, a mark not there.
    expect(applyMarkChange(barista, config, { mark: 'script:0', change: 'move', toMs: 2000.3 })).toBeNull();
    expect(applyMarkChange(barista, config, { mark: 'learner:3', change: 'remove' })).toBeNull();
  });
});

describe('changing the story in the player', () => {
  it("shortens lesson 5's pause to 5 s: the double write goes, the change is said, and undo and redo bring each run back", async () => {
    const store = await newStore();
    expect(singleWriter(store)).toBe(false);
    store.getState().changeMark({ mark: 'script:0', change: 'resize', lengthMs: 5000 });
    await store.getState().settled();
    expect(singleWriter(store)).toBe(true);
    expect(store.getState().storyNote).toBe('pause A shortened to 5 s');

    store.getState().undo();
    await store.getState().settled();
    expect(singleWriter(store)).toBe(false);
    expect(store.getState().storyNote).toBe('Undone: pause A shortened to 5 s');
    store.getState().redo();
    await store.getState().settled();
    expect(singleWriter(store)).toBe(true);
    expect(store.getState().redoStack).toEqual([]);
  });

  it("goes back to the lesson's run, edits and actions alike, and a new change forgets what was undone", async () => {
    const store = await newStore();
    store.getState().changeMark({ mark: 'script:0', change: 'remove' });
    store.getState().act({ do: 'crash', target: 'B' });
    await store.getState().settled();
    expect(store.getState().config.edits).toHaveLength(1);
    store.getState().clearActions();
    await store.getState().settled();
    expect(store.getState().config).toEqual(plain());
    expect(singleWriter(store)).toBe(false);
    store.getState().undo();
    await store.getState().settled();
    expect(store.getState().config.edits).toEqual([{ edit: 'remove', mark: 0 }]);
    store.getState().changeMark({ mark: 'learner:0', change: 'move', toMs: 12_000 });
    await store.getState().settled();
    expect(store.getState().redoStack).toEqual([]);
    expect(store.getState().undoStack.map((s) => s.note)).toEqual([
      'pause A removed',
      'crash B at 0 ms',
      'crash B moved to 12 s',
    ]);
  });

  it("shows the dragged pause's run while it is dragged, without an undo step, and the release takes that run as it is", async () => {
    const api = createSimulationApi(scripts);
    let runs = 0;
    const counted = { ...api, run: (...args: Parameters<typeof api.run>) => (runs++, api.run(...args)) };
    const store = createPlayerStore(barista, playerSimulator(inProcessQueue(counted), barista));
    await store.getState().settled();
    store.getState().seekTime(60_000);
    expect(singleWriter(store)).toBe(false);
    runs = 0;

    const shortened = { mark: 'script:0', change: 'resize', lengthMs: 5000 } as const;
    store.getState().previewMark(shortened);
    await vi.waitFor(() => expect(singleWriter(store)).toBe(true));
    // The verdict changed with the drag; the story did not: nothing to undo, the mark where it was.
    expect(store.getState().undoStack).toEqual([]);
    expect(store.getState().computing).toBe(false);
    expect(playerMarks(barista, store.getState().config)[0]!.lengthMs).toBe(15_000);

    store.getState().changeMark(shortened);
    store.getState().previewMark(null);
    await store.getState().settled();
    expect(singleWriter(store)).toBe(true);
    expect(store.getState().storyNote).toBe('pause A shortened to 5 s');
    expect(runs).toBe(1);
  });

  it("puts the lesson's run back when a drag is let go where it began", async () => {
    const store = await newStore();
    store.getState().previewMark({ mark: 'script:0', change: 'remove' });
    await vi.waitFor(() => expect(singleWriter(store)).toBe(true));
    store.getState().previewMark(null);
    expect(singleWriter(store)).toBe(false);
    expect(store.getState().undoStack).toEqual([]);
  });
});
