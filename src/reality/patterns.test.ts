import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEvent } from '../sim/traceEvents';
import { realityCheck } from './realityCheck';

/**
 * Course 3's lock patterns on real processes: the simulator's own recipes (coreRecipe.ts: the
 * fair lock's queue, the read-write hash, the semaphore's sorted set, the reentrant count, each
 * its Lua on a real redis-server), the watchdog (with the review clinic's cap on how long it
 * holds), and the herd without and with circuit breakers
 * (the simulator's breaker machine, realBreaker.ts). At a quarter
 * of real time, or at real time where clients start closer together than a loaded machine
 * keeps them apart (timingSensitivity.ts names those below scale 1). Lesson 31's headline,
 * `c3-nested-plain`, is not here: when A's own key expires, A's and B's retries both knock,
 * and which gets in first (B, in the simulator, "happens to", as the lesson says) is a race
 * that real retries, drifting by each round trip, decide either way.
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

const count = (trace: readonly TraceEvent[], kind: string, actor: string) =>
  trace.filter((e) => e.kind === kind && e.actor === actor).length;

const RUNS: [string, number, ((trace: readonly TraceEvent[]) => void)?][] = [
  // The reentrant recipe counts A's three entries; A's third release deletes the key, and only
  // then does B get in.
  [
    'lessons/31-reentrant-lock.md#c3-reentrant-counter',
    0.25,
    (trace) => {
      expect(count(trace, 'lock.acquired', 'A')).toBe(3);
      const released = trace.filter((e) => e.kind === 'lock.released' && e.actor === 'A');
      expect(released.map((e) => e.kind === 'lock.released' && e.data.deleted)).toEqual([true]);
      const bIn = trace.find((e) => e.kind === 'lock.acquired' && e.actor === 'B')!;
      expect(bIn.id).toBeGreaterThan(released[0]!.id);
    },
  ],
  ['lessons/34-read-write-lock.md#c3-rw-one-script', 0.25],
  ['lessons/34-read-write-lock.md#c3-rw-two-step', 1],
  ['lessons/35-semaphore.md#c3-two-ovens', 0.25],
  ['lessons/35-semaphore.md#c3-paused-cook', 1],
  ['lessons/32-watchdog.md#c3-wd-equal', 0.25],
  // The clinic's fix for a runaway renewal: A's watchdog, wedged on endless work, stops renewing
  // after its 4 s cap, its lease expires, and C and B each get their turn.
  [
    'lessons/46-clinic-runaway-renewal.md#clinic-runaway-renewal-fixed',
    0.5,
    (trace) => {
      const lost = trace.find((e) => e.kind === 'lock.lost' && e.actor === 'A')!;
      expect(lost.data).toEqual({ key: 'lock', reason: 'held for 4 s, its cap: the watchdog stops renewing' });
      expect(lost.at).toBeGreaterThanOrEqual(4000);
      const writers = trace.flatMap((e) => (e.kind === 'resource.write' && e.data.accepted ? [e.data.from] : []));
      expect(writers.sort()).toEqual(['B', 'C']);
    },
  ],
  ['lessons/37-circuit-breaker.md#c3-no-breaker', 0.25],
  // The simulator's own breaker machine in each real client (realBreaker.ts): while r1 is down
  // (1 s to 9 s) the three clients ask it 19 times in the simulator, 81 times without breakers.
  [
    'lessons/37-circuit-breaker.md#c3-breaker',
    0.25,
    (trace) => {
      const asked = trace.filter(
        (e) => e.kind === 'net.send' && e.data.to === 'r1' && e.at >= 1000 && e.at < 9000,
      ).length;
      expect(asked).toBeGreaterThan(0);
      expect(asked).toBeLessThanOrEqual(25);
    },
  ],
];

async function agrees(spec: string, scale: number): Promise<readonly TraceEvent[]> {
  const check = await realityCheck(scenario(spec), { scale });
  expect(check.sensitivity).toBeNull();
  const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
  expect(check.differ, `${table}; unfinished: ${check.run.unfinished}`).toEqual([]);
  return check.run.trace;
}

describe.concurrent('reality check: lock patterns', () => {
  for (const [spec, scale, story] of RUNS) {
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      story?.(await agrees(spec, scale));
    });
  }
});

/**
 * The fair lock's two runs keep three baristas knocking every 50 ms for 20 s: beside the runs
 * above, at a quarter speed, a starved process held a reply for 170 real ms and a lease ran out
 * under its holder. Alone, one after the other, at half speed.
 */
describe('reality check: the fair lock', () => {
  for (const spec of ['lessons/33-fair-lock.md#c3-unfair-lease', 'lessons/33-fair-lock.md#c3-fair-lock'])
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      await agrees(spec, 0.5);
    });
});
