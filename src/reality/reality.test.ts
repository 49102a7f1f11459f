import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import { runReality, UnsupportedScenario } from './harness';
import { realityCheck } from './realityCheck';

/**
 * Course 1's headline runs on real processes (redis-server, a Node + ioredis process per
 * client, an HTTP resource) give the simulator's verdicts. They run at once (each is mostly
 * waiting) at a quarter of real time, so the suite costs about as long as its longest run.
 */
const SCALE = 0.25;

function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

/**
 * The paused barista's pause comes 6 ms (scenario time) before A would finish its work and write:
 * at a quarter of real time that is 1.5 ms, less than a timer's lateness on a loaded 2-core
 * machine, so these two run at twice real time (12 ms of margin), and a run whose pause still
 * landed 6 ms late or more is run again (it is not the scenario's run: A may have written first).
 */
const TIGHT = new Map([
  // A crashes at 200 ms, inside the 500 ms between its SETNX and its EXPIRE: at a quarter of real
  // time that window is 125 ms, and with every run of this suite side by side a crash landed past
  // it once (the key then got its TTL and B made progress). At real time the crash has 300 ms.
  ['lessons/02-espresso-machine.md#author-collapses', { scale: 1, marginMs: 250 }],
  ['lessons/05-paused-barista.md#paused-barista', { scale: 2, marginMs: 6 }],
  ['lessons/06-fencing-tokens.md#paused-barista-fenced', { scale: 2, marginMs: 6 }],
]);

const HEADLINES = [
  'lessons/01-ground-rules.md#calm-afternoon',
  'lessons/02-espresso-machine.md#author-collapses',
  'lessons/02-espresso-machine.md#note-wiped',
  'lessons/03-lock-or-lease.md#lease-frees-machine',
  'lessons/04-simplest-lock.md#plain-del',
  'lessons/05-paused-barista.md#paused-barista',
  'lessons/06-fencing-tokens.md#paused-barista-fenced',
  'lessons/07-decision-game.md#trial-slow-job',
  'lessons/08-renewals-watchdog.md#long-order-no-renewal',
  // Redis's wall clock leaps 8 s under libfaketime: A's lease expires early and B writes beside it.
  'lessons/01-ground-rules.md#redis-clock-leap',
];

describe.concurrent('reality check', () => {
  for (const spec of HEADLINES) {
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      const check = await realityCheck(scenario(spec), TIGHT.get(spec) ?? { scale: SCALE });
      const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
      expect(
        check.inconclusive,
        `the script landed ${check.run.scheduleSlipMs.toFixed(1)} ms late in each of ${check.attempts} runs`,
      ).toBe(false);
      expect(check.differ, table).toEqual([]);
      // The run did something worth comparing: locks were taken on the real Redis.
      expect(check.run.trace.some((e) => e.kind === 'lease.granted')).toBe(true);
    });
  }

  it('reports a difference when the real resource stops checking fencing tokens', { timeout: 120_000 }, async () => {
    const check = await realityCheck(scenario('lessons/06-fencing-tokens.md#paused-barista-fenced'), {
      scale: 2,
      marginMs: 6,
      breakFencing: true,
    });
    expect(check.inconclusive).toBe(false);
    expect(check.differ).toContain('single-writer');
    const singleWriter = check.pairs.find((p) => p.invariant === 'single-writer')!;
    expect([singleWriter.sim?.holds, singleWriter.real?.holds]).toEqual([true, false]);
  });

  it('names what it cannot run yet instead of running it', async () => {
    const redlock = scenario('lessons/07-decision-game.md#trial-redlock');
    const refused = await runReality(redlock, { scale: SCALE }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnsupportedScenario);
    expect((refused as UnsupportedScenario).reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^needs 5 Redis nodes/),
        expect.stringMatching(/recipe 'redlock': not yet supported/),
      ]),
    );
    const leap = scenario('lessons/01-ground-rules.md#redis-clock-leap');
    const clientJump = { ...leap, script: leap.script.map((step) => ({ ...step, target: 'A' })) } as Scenario;
    const jump = await runReality(clientJump, { scale: SCALE }).catch((error: unknown) => error);
    expect((jump as UnsupportedScenario).reasons).toEqual([
      expect.stringContaining("a clock jump on A (only a Redis node's clock is stepped so far): not yet supported"),
    ]);
  });
});
