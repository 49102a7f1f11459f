import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../cli/loadScenario';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { simTime } from '../../sim/time';
import { loadScriptEngine } from './run';
import type { Scenario } from '../schema/schema';
import { Simulation } from './simulation';
import {
  describeStoryChanges,
  editScenario,
  lengthOf,
  storyEditsSchema,
  storyMarks,
  type StoryEdit,
} from './storyEdits';

let scripts: ScriptEngine;
beforeAll(async () => {
  scripts = await loadScriptEngine();
});

function lesson(ref: string): Scenario {
  const loaded = loadScenario(ref);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

function verdict(scenario: Scenario, edits: readonly StoryEdit[], invariant: string) {
  const simulation = new Simulation(scenario, { edits }, scripts).run();
  return {
    holds: simulation.verdicts().find((v) => v.invariant === invariant)!.holds,
    events: simulation.sim.trace.toArray(),
  };
}

describe('lesson 5, the paused barista: changing its scripted 15 s pause', () => {
  const barista = () => lesson('lessons/05-paused-barista.md#paused-barista');

  it('breaks single-writer as written, and keeps it once the pause is shortened to 5 s', () => {
    expect(verdict(barista(), [], 'single-writer').holds).toBe(false);
    const shorter = verdict(barista(), [{ edit: 'resize', mark: 0, lengthMs: 5000 }], 'single-writer');
    expect(shorter.holds).toBe(true);
    // A is frozen for 5 s, not 15 s: it wakes at 7 s, with its lease (10 s) still alive.
    const resumed = shorter.events.find((e) => e.kind === 'process.resume' && e.actor === 'A')!;
    expect(resumed.at).toBeGreaterThanOrEqual(7000);
    expect(resumed.at).toBeLessThan(7100);
  });

  it("keeps single-writer when the pause is removed, or moved past the end of A's order", () => {
    expect(verdict(barista(), [{ edit: 'remove', mark: 0 }], 'single-writer').holds).toBe(true);
    expect(verdict(barista(), [{ edit: 'move', mark: 0, toMs: 20_000 }], 'single-writer').holds).toBe(true);
  });

  it("keeps a moved time and a changed length to the millisecond (an event's time a drag snapped to), and a length to at least 100 ms", () => {
    const [pause] = storyMarks(barista(), [
      { edit: 'move', mark: 0, toMs: 1949.4 },
      { edit: 'resize', mark: 0, lengthMs: 4963 },
    ]);
    expect(pause!.entry).toMatchObject({ at: 1949, do: 'pause', target: 'A', for: 4963 });
    const [short] = storyMarks(barista(), [{ edit: 'resize', mark: 0, lengthMs: 20 }]);
    expect(short!.entry).toMatchObject({ for: 100 });
  });

  it('says what changed, once per fault and where it ended up', () => {
    const edits: StoryEdit[] = [
      { edit: 'move', mark: 0, toMs: 3000 },
      { edit: 'move', mark: 0, toMs: 1900 },
      { edit: 'resize', mark: 0, lengthMs: 5000 },
    ];
    expect(describeStoryChanges(barista(), edits)).toEqual(['pause A moved to 1.9 s', 'pause A shortened to 5 s']);
    expect(describeStoryChanges(barista(), [{ edit: 'remove', mark: 0 }])).toEqual(['pause A removed']);
  });

  it('adds a fault the learner names, and lets a later edit move it', () => {
    const edits: StoryEdit[] = [
      { edit: 'add', action: { at: simTime(4000), do: 'crash', target: 'B' } },
      { edit: 'move', mark: 1, toMs: 5000 },
    ];
    expect(storyMarks(barista(), edits).map((m) => [m.mark, m.entry.do, m.entry.at])).toEqual([
      [0, 'pause', 2000],
      [1, 'crash', 5000],
    ]);
    expect(describeStoryChanges(barista(), edits)).toEqual(['crash B added at 5 s']);
  });

  it('ignores an edit of a fault that is no longer there', () => {
    const marks = storyMarks(barista(), [
      { edit: 'remove', mark: 0 },
      { edit: 'move', mark: 0, toMs: 5000 },
      { edit: 'resize', mark: 7, lengthMs: 100 },
    ]);
    expect(marks).toEqual([]);
  });

  it('leaves the scenario itself alone', () => {
    const scenario = barista();
    editScenario(scenario, [{ edit: 'resize', mark: 0, lengthMs: 5000 }]);
    expect(scenario.script[0]).toMatchObject({ for: 15_000 });
  });
});

describe('lesson 4, the immortal lock: removing its scripted crash', () => {
  it('lets B get the lock again: progress holds once A no longer crashes holding it', () => {
    const scenario = lesson('lessons/04-simplest-lock.md#immortal-lock');
    expect(verdict(scenario, [], 'progress').holds).toBe(false);
    expect(verdict(scenario, [{ edit: 'remove', mark: 0 }], 'progress').holds).toBe(true);
  });

  it('gives a crash a length by adding its restart, which later resizes move', () => {
    const scenario = lesson('lessons/04-simplest-lock.md#immortal-lock');
    const marks = storyMarks(scenario, [
      { edit: 'resize', mark: 0, lengthMs: 1000 },
      { edit: 'resize', mark: 0, lengthMs: 3000 },
    ]);
    expect(marks.map((m) => [m.mark, m.entry.do, m.entry.at])).toEqual([
      [0, 'crash', 200],
      [1, 'restart', 3200],
    ]);
  });
});

describe('lesson 8, a partition and its heal', () => {
  const split = () => lesson('lessons/08-renewals-watchdog.md#renewal-timeout-stop');

  it("reads the partition's length up to its heal, and stretches it by moving the heal", () => {
    const scenario = split();
    const marks = storyMarks(scenario, []);
    expect(lengthOf(marks, marks[0]!)).toBe(1100);
    const longer = storyMarks(scenario, [{ edit: 'resize', mark: 0, lengthMs: 4000 }]);
    expect(longer.map((m) => [m.entry.do, m.entry.at])).toEqual([
      ['partition', 1900],
      ['heal', 5900],
    ]);
  });

  it('moves a partition with its heal, and removes them together; the heal alone moves alone', () => {
    const scenario = split();
    expect(storyMarks(scenario, [{ edit: 'move', mark: 0, toMs: 1000 }]).map((m) => m.entry.at)).toEqual([1000, 2100]);
    expect(storyMarks(scenario, [{ edit: 'remove', mark: 0 }])).toEqual([]);
    expect(storyMarks(scenario, [{ edit: 'move', mark: 1, toMs: 6000 }]).map((m) => m.entry.at)).toEqual([1900, 6000]);
  });

  it("keeps times within the scenario's horizon", () => {
    const scenario = split();
    const [partition] = storyMarks(scenario, [{ edit: 'move', mark: 0, toMs: 10 * scenario.horizon }]);
    expect(partition!.entry.at).toBe(scenario.horizon);
  });
});

describe('edits from a link', () => {
  it('accepts the four kinds and rejects a bad one with the field named', () => {
    expect(
      storyEditsSchema.safeParse([
        { edit: 'remove', mark: 0 },
        { edit: 'add', action: { at: 100, do: 'heal' } },
      ]).success,
    ).toBe(true);
    const bad = storyEditsSchema.safeParse([{ edit: 'move', mark: -1, toMs: 100 }]);
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual([0, 'mark']);
  });
});

describe("lesson 34, look then take: a client's timing changed from its lane menu", () => {
  const twoStep = () => lesson('lessons/34-read-write-lock.md#c3-rw-two-step');

  it('keeps readers-or-one-writer once the manager starts at 100 ms instead of 5 ms, and says so', () => {
    expect(verdict(twoStep(), [], 'readers-or-one-writer').holds).toBe(false);
    const late: StoryEdit[] = [{ edit: 'client', client: 'W', startAtMs: 100 }];
    const run = verdict(twoStep(), late, 'readers-or-one-writer');
    expect(run.holds).toBe(true);
    expect(run.events.find((e) => e.kind === 'lock.request' && e.actor === 'W')!.at).toBe(100);
    expect(describeStoryChanges(twoStep(), late)).toEqual(["W's start moved to 100 ms"]);
  });

  it('changes TTL and work too, the later edit winning, and leaves other clients alone', () => {
    const edited = editScenario(twoStep(), [
      { edit: 'client', client: 'R', ttlMs: 2000, workMs: 3000 },
      { edit: 'client', client: 'R', workMs: 500 },
    ]);
    expect(edited.clients.find((c) => c.id === 'R')).toMatchObject({ ttl: 2000, work: 500, startAt: 0 });
    expect(edited.clients.find((c) => c.id === 'W')).toEqual(twoStep().clients.find((c) => c.id === 'W'));
  });

  it('comes from a link only with whole, non-negative milliseconds and a positive TTL', () => {
    expect(storyEditsSchema.safeParse([{ edit: 'client', client: 'W', startAtMs: 100, workMs: 0 }]).success).toBe(true);
    const bad = storyEditsSchema.safeParse([{ edit: 'client', client: 'W', ttlMs: 0 }]);
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual([0, 'ttlMs']);
  });
});
