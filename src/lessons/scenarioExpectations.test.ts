import { describe, expect, it } from 'vitest';
import type { Verdict } from '../check/verdict';
import { formatDiagnostic } from '../scenario/diagnostic';
import { parseLesson } from './parse';
import { runScenarioTrace } from '../scenario/running/run';
import { checkScenarioExpectations, RunStopped, type ScenarioRunner } from './scenarioExpectations';

const lesson = (expectYaml: string) => {
  const text = [
    '---',
    'slug: calm',
    'title: Calm',
    'course: fixtures',
    'order: 1',
    'readTime: 5',
    'summary: A calm run.',
    '---',
    '',
    '```scenario',
    'id: calm',
    'title: Calm',
    'clients: [{ id: A, recipe: lease-with-token, ttl: 10s }]',
    'resource: { id: espresso }',
    expectYaml,
    '```',
    '',
  ].join('\n');
  const parsed = parseLesson(text, 'lessons/01-calm.md');
  if (!parsed.lesson) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  return parsed.lesson;
};

const verdict = (invariant: string, holds: boolean): Verdict =>
  ({
    invariant,
    holds,
    atMs: holds ? null : 9057,
    eventIds: [],
    explanation: '',
    violations: holds ? 0 : 1,
  }) as Verdict;
/** The lesson-9 case: the writer is safe, but the run also reports a lease granted twice. */
const leaseBroken: ScenarioRunner = async () => ({
  verdicts: [verdict('single-writer', true), verdict('single-lease', false), verdict('progress', true)],
});

const lines = async (expectYaml: string) =>
  (await checkScenarioExpectations([lesson(expectYaml)], leaseBroken)).diagnostics.map(formatDiagnostic);

describe('lessons:check guards the invariants a scenario does not list', () => {
  it('fails a scenario that promises every invariant holds when one breaks', async () => {
    expect(await lines('expect: [{ invariant: all, outcome: holds }]')).toEqual([
      "lessons/01-calm.md:10:1: scenario 'calm': expected every invariant to hold (invariant: all), but single-lease was violated at 9057 ms (seed 1; replay with npm run sim -- lessons/01-calm.md#calm --seed 1)",
    ]);
  });

  it('lets an entry of its own say a break is meant', async () => {
    expect(
      await lines('expect: [{ invariant: all, outcome: holds }, { invariant: single-lease, outcome: violated }]'),
    ).toEqual([]);
  });

  it('fails when expect lists only what holds and the run breaks something else', async () => {
    const out = await lines('expect: { invariant: single-writer, outcome: holds }');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^lessons\/01-calm\.md:10:1: scenario 'calm': expect says only what holds, but the quiet run also breaks single-lease at 9057 ms \(if the lesson means it, add \{ invariant: single-lease, outcome: violated \}/,
    );
  });

  it('says nothing more about a scenario that shows a break', async () => {
    expect(await lines('expect: { invariant: single-lease, outcome: violated }')).toEqual([]);
  });
});

describe('lessons:check reports a run a budget cut short, expect or not', () => {
  const tiny: ScenarioRunner = (scenario, options) => runScenarioTrace(scenario, { ...options, maxEvents: 5 });

  it('names the cut, where it happened and how to fix it, for a scenario without expect', async () => {
    const out = (await checkScenarioExpectations([lesson('')], tiny)).diagnostics.map(formatDiagnostic);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^lessons\/01-calm\.md:10:1: scenario 'calm': the run was cut short, so nothing after \d+ ms was checked: The run was stopped after 5 events/,
    );
    expect(out[0]).toContain('make the scenario smaller');
  });

  it('takes the lesson at its word when expect says the run does not complete', async () => {
    expect(
      (await checkScenarioExpectations([lesson('expect: { invariant: run-completes, outcome: violated }')], tiny))
        .diagnostics,
    ).toEqual([]);
  });

  it('does not count reaching the horizon with work pending as a cut (a lesson may teach a lock that is never released)', async () => {
    const horizon: ScenarioRunner = async () => ({ verdicts: [verdict('run-completes', false)], ended: 'time-cap' });
    expect((await checkScenarioExpectations([lesson('')], horizon)).diagnostics).toEqual([]);
  });
});

describe('lessons:check reports a script the engine stopped, as the workbench does', () => {
  const spinning = () => {
    const text = [
      '---',
      'slug: spin',
      'title: Spin',
      'course: fixtures',
      'order: 1',
      'readTime: 5',
      'summary: A runaway.',
      '---',
      '',
      '```scenario',
      'id: spin',
      'title: Spin',
      'horizon: 3s',
      'clients:',
      "  - { id: A, steps: [{ redis: [EVAL, 'while true do end', '0'], as: acquire }, { write: espresso }] }",
      'resource: { id: espresso }',
      '```',
      '',
    ].join('\n');
    const parsed = parseLesson(text, 'lessons/01-spin.md');
    if (!parsed.lesson) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
    return parsed.lesson;
  };

  it('names the endless loop at its scenario block, though every verdict holds', async () => {
    const out = (await checkScenarioExpectations([spinning()], runScenarioTrace)).diagnostics.map(formatDiagnostic);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^lessons\/01-spin\.md:10:1: scenario 'spin': This script ran past the budget of 20 million instructions and was stopped at script line 1, where it was running: a loop that never ends\? \(sent by A\) \(give every loop an exit/,
    );
  });

  it('says a run stopped from outside was the lesson’s runaway, not a crash of the simulator', async () => {
    const stopped: ScenarioRunner = () =>
      Promise.reject(
        new RunStopped(
          'one step of the run computed for more than 4 s without ending and was stopped, so nothing in it was checked',
        ),
      );
    const out = (await checkScenarioExpectations([spinning()], stopped)).diagnostics.map(formatDiagnostic);
    expect(out).toEqual([
      "lessons/01-spin.md:10:1: scenario 'spin': one step of the run computed for more than 4 s without ending and was stopped, so nothing in it was checked (a script that does work the simulator cannot count and cut short, such as comparing or copying very long strings many times over; remove it or make its strings shorter)",
    ]);
  });
});
