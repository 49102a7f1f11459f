import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { runScenario } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import { timingSensitivity } from './timingSensitivity';

function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

async function sensitivity(spec: string, scale: number) {
  const s = scenario(spec);
  return timingSensitivity(s, scale, (await runScenario(s)).verdicts);
}

describe('whether a run hangs on timing finer than real processes keep', () => {
  it("names lesson 5's pause, 6 ms before the write, at a quarter speed and not at twice real time", async () => {
    // At scale 0.25 the machine's 10 ms are 40 ms of scenario time: the pause lands after the write.
    expect(await sensitivity('lessons/05-paused-barista.md#paused-barista', 0.25)).toEqual({
      change: 'the script 40 ms later (10 real ms at scale 0.25)',
      changed: ['single-writer', 'single-holder'],
    });
    expect(await sensitivity('lessons/05-paused-barista.md#paused-barista', 2)).toBeNull();
  });

  it("names lesson 16's shift at any scale: who holds the lock at the pause depends on each message's milliseconds", async () => {
    for (const scale of [0.25, 1, 4])
      expect(await sensitivity('lessons/16-observability.md#observability-shift', scale)).toEqual({
        change: 'every message 3 ms on the way instead of 1–3 ms',
        changed: ['single-holder'],
      });
  });

  it('varies no latency the scenario sets itself, and passes a run whose story has room', async () => {
    // The same run with the default 1–3 ms written out (the same trace): a latency the scenario
    // sets is part of its story, so only its script is moved.
    const shift = scenario('lessons/16-observability.md#observability-shift');
    const set = { ...shift, network: { ...shift.network, latency: { dist: 'uniform' as const, min: 1, max: 3 } } };
    const run = await runScenario(set);
    expect(run.traceHash).toBe((await runScenario(shift)).traceHash);
    expect(await timingSensitivity(set, 1, run.verdicts)).toBeNull();
    expect(await sensitivity('lessons/03-lock-or-lease.md#lease-frees-machine', 0.25)).toBeNull();
  });
});
