import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { withActions } from '../scenario/schema/scriptActions';
import { simTime } from '../sim/time';
import { runReality } from './harness';

describe("a learner's actions on real processes", () => {
  it('are carried out with the script, and recorded as the learner’s', { timeout: 60_000 }, async () => {
    const loaded = loadScenario('lessons/03-lock-or-lease.md#lease-frees-machine');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const own = new Set(loaded.scenario.script);
    const scenario = withActions(loaded.scenario, [{ at: simTime(1500), do: 'pause', target: 'A', forMs: 2000 }]);
    const learnerSteps = new Set(scenario.script.filter((step) => !own.has(step)));
    const run = await runReality(scenario, { scale: 0.25, learnerSteps });
    const applied = run.trace.flatMap((e) => (e.kind === 'action.apply' ? [[e.data.action, e.data.source]] : []));
    expect(applied).toEqual([
      ['crash', 'script'],
      ['pause', 'learner'],
    ]);
    expect(run.trace.some((e) => e.kind === 'process.pause' && e.actor === 'A')).toBe(true);
  });
});
