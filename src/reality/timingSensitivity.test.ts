import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { runScenario } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import { timingSensitivity, timingVariants } from './timingSensitivity';

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

  it("names lesson 11's deadlock: it needs both baristas to start within a few milliseconds", async () => {
    // Each must take its first lock before the other asks for it: B 4 ms later, and A takes both.
    expect(await sensitivity('lessons/11-cluster-many-locks.md#flat-white-deadlock', 0.5)).toEqual({
      change: "the clients' starts reversed within 20 ms",
      changed: ['single-writer', 'single-holder', 'progress'],
    });
  });

  it("names lesson 16's shift at any scale: who holds the lock at the pause hangs on a few milliseconds", async () => {
    // Six workers start 150 ms apart and contend for 7.5 s; reversed within the machine's
    // precision, or with every message 3 ms on the way, another worker holds it at the pause.
    const spec = 'lessons/16-observability.md#observability-shift';
    expect(await sensitivity(spec, 0.25)).toEqual({
      change: "the clients' starts reversed within 40 ms",
      changed: ['single-holder'],
    });
    expect(await sensitivity(spec, 1)).toEqual({
      change: "the clients' starts reversed within 10 ms",
      changed: ['single-holder'],
    });
    expect(await sensitivity(spec, 4)).toEqual({
      change: 'every message 3 ms on the way instead of 1–3 ms',
      changed: ['single-holder'],
    });
  });

  it('varies no latency the scenario sets itself, and passes a run whose story has room', async () => {
    // A latency the scenario sets is part of its story: only the script and the starts move.
    const shift = scenario('lessons/16-observability.md#observability-shift');
    const set = { ...shift, network: { ...shift.network, latency: { dist: 'uniform' as const, min: 1, max: 3 } } };
    expect(timingVariants(shift, 1).map((v) => v.change)).toEqual([
      'the script 10 ms later (10 real ms at scale 1)',
      'the script 10 ms earlier (10 real ms at scale 1)',
      "the clients' starts reversed within 10 ms",
      'every message 0 ms on the way instead of 1–3 ms',
      'every message 3 ms on the way instead of 1–3 ms',
    ]);
    expect(timingVariants(set, 1).map((v) => v.change)).toEqual([
      'the script 10 ms later (10 real ms at scale 1)',
      'the script 10 ms earlier (10 real ms at scale 1)',
      "the clients' starts reversed within 10 ms",
    ]);
    expect(await sensitivity('lessons/03-lock-or-lease.md#lease-frees-machine', 0.25)).toBeNull();
  });

  it("names a semaphore's cooks who start 10 ms apart, at a quarter speed and not at real time", async () => {
    expect(await sensitivity('lessons/35-semaphore.md#c3-paused-cook', 0.25)).toEqual({
      change: "the clients' starts reversed within 40 ms",
      changed: ['within-permits'],
    });
    expect(await sensitivity('lessons/35-semaphore.md#c3-paused-cook', 1)).toBeNull();
  });
});
