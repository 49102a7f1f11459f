import { describe, expect, it } from 'vitest';
import type { Action } from '../../actors/action';
import { loadScenario } from '../../cli/loadScenario';
import { runScenario } from '../running/run';
import { simTime } from '../../sim/time';
import { scriptAction } from './schema';
import { toAction, toScriptEntry, withActions } from './scriptActions';

const at = simTime(2000);
/** One action of every kind, with every optional field a learner's button or a file can give. */
const ACTIONS: Action[] = [
  { at, do: 'pause', target: 'A' },
  { at, do: 'pause', target: 'A', forMs: 15_000 },
  { at, do: 'resume', target: 'A' },
  { at, do: 'crash', target: 'redis' },
  { at, do: 'restart', target: 'redis' },
  { at, do: 'clock-jump', target: 'redis', byMs: -20_000 },
  { at, do: 'partition', groups: [['A'], ['redis', 'B']], oneWay: true },
  { at, do: 'heal' },
  { at, do: 'network', latency: { dist: 'fixed', ms: 5 } },
  { at, do: 'network', from: 'A', to: 'redis', latency: { dist: 'uniform', minMs: 1, maxMs: 3 }, loss: 0.1 },
  {
    at,
    do: 'network',
    latency: { dist: 'long-tail', minMs: 1, medianMs: 2, maxMs: 900 },
    duplicate: 0.2,
    reorder: 0.3,
  },
  { at, do: 'command', target: 'redis', argv: ['DEL', 'lock:espresso'] },
  { at, do: 'failover', target: 'redis' },
  { at, do: 'power-loss', target: 'redis' },
];

describe('a learner’s actions as script entries', () => {
  it.each(ACTIONS.map((a) => [JSON.stringify(a), a] as const))(
    '%s: the entry is one the scenario schema accepts, and stands for the same action',
    (_, action) => {
      const entry = toScriptEntry(action);
      expect(scriptAction.parse(entry)).toEqual(entry);
      const { at: moment, ...untimed } = action;
      expect(entry.at).toBe(moment);
      expect(toAction(entry)).toEqual(action.do === 'partition' ? { oneWay: false, ...untimed } : untimed);
    },
  );

  it('joined to the script, they give the run the scenario gives with those actions', async () => {
    const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    // B crashed at the very moment the script pauses A: the script's step must still come first.
    const pauseAt = loaded.scenario.script[0]!.at;
    const actions: Action[] = [
      { at: simTime(pauseAt), do: 'crash', target: 'B' },
      { at: simTime(pauseAt + 500), do: 'restart', target: 'B' },
    ];
    const learner = await runScenario(loaded.scenario, { actions });
    const merged = await runScenario(withActions(loaded.scenario, actions));
    expect(merged.verdicts).toEqual(learner.verdicts);
    expect(merged.events).toBe(learner.events);
    expect(withActions(loaded.scenario, []).script).toBe(loaded.scenario.script);
  });
});
