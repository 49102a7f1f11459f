import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { runScenarioTrace } from '../scenario/running/run';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEvent } from '../sim/traceEvents';
import { runReality } from './harness';
import { UnsupportedScenario } from './support';
import { realityCheck, type CheckOptions } from './realityCheck';

/**
 * The headline runs whose clients follow step lists (lessons 15 and 30 and the review clinic),
 * on real processes: each command sent as written (its lease scaled), each wait a sleep, each
 * write a request to the resource. They run at once, after the recipe headlines
 * (reality.test.ts), so the two crowds never share the machine; at half of real time where
 * the story has room for a loaded machine's lateness, else at real time (all within 8 s).
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

const HEADLINES = new Map<string, CheckOptions>([
  // A's SET is granted and its reply lost; A times out after 300 ms and goes on. Its retry at
  // 1.3 s must be answered within the same 300 ms: at half speed (150 real ms) a loaded machine
  // once answered it later, and the story changed. At real time the run is 5 s. The loss ends at
  // 1 s, 300 ms before that retry: a run whose script came 250 ms late or more is run again.
  ['lessons/15-edge-cases.md#ambiguous-timeout', { scale: 1, marginMs: 250 }],
  ['lessons/30-basic-lease.md#c3-no-nx', { scale: 0.5 }],
  ['lessons/40-clinic-plain-del.md#clinic-plain-del', { scale: 0.5 }],
  ['lessons/41-clinic-setnx-expire.md#clinic-setnx-expire', { scale: 0.5 }],
  ['lessons/42-clinic-unfenced-write.md#clinic-unfenced-write', { scale: 0.5 }],
  // Its acquiring script takes the lease as an argument (ARGV[2] = 2000), which cannot be told
  // from any other number: it runs at real time (6 s).
  ['lessons/43-clinic-short-ttl.md#clinic-short-ttl', { scale: 1 }],
  ['lessons/47-clinic-token-before-lock.md#clinic-token-before-lock', { scale: 0.5 }],
  // Every command has a 300 ms timeout (75 real ms at a quarter speed, which a loaded machine
  // missed once: an EXPIRE unanswered in time, and another story). At real time the run is 4 s.
  ['lessons/48-clinic-whole-recipe.md#clinic-review', { scale: 1 }],
]);

const results = (trace: readonly TraceEvent[], actor: string) =>
  trace.flatMap((e) => (e.kind === 'step.done' && e.actor === actor ? [e.data.result] : []));

/** What the real run must show besides its verdicts: the story the lesson tells. */
const STORIES = new Map<string, (trace: readonly TraceEvent[]) => void>([
  [
    'lessons/15-edge-cases.md#ambiguous-timeout',
    (trace) => {
      // The SET whose reply was lost took the lock all the same: Redis granted A's first value
      // before A gave up on its answer, the retry (another value) never took it, and B gets
      // the lock only once A's lease is gone. (Whether the retry's own answer, 300 ms after the loss
      // ends, is heard in time depends on how late a loaded machine runs the script.)
      const [first] = results(trace, 'A');
      expect(first).toBe('no answer (timeout): busy, going on without the lock');
      const grants = trace.filter((e) => e.kind === 'lease.granted' && e.data.owner === 'A');
      expect(grants.map((e) => e.kind === 'lease.granted' && e.data.value)).toEqual([
        expect.stringMatching(/^A-[0-9a-f]{8}$/),
      ]);
      const timeout = trace.find((e) => e.kind === 'request.timeout' && e.actor === 'A')!;
      expect(grants[0]!.id).toBeLessThan(timeout.id);
      const ended = trace.find((e) => e.kind === 'lease.ended' && e.data.owner === 'A')!;
      const bGranted = trace.find((e) => e.kind === 'lease.granted' && e.data.owner === 'B')!;
      expect(bGranted.id).toBeGreaterThan(ended.id);
    },
  ],
  [
    'lessons/43-clinic-short-ttl.md#clinic-short-ttl',
    (trace) => {
      // Each client believes in the 2 s its script asked for, not the client's default 10 s.
      const acquired = trace.filter((e) => e.kind === 'lock.acquired');
      expect(acquired.map((e) => e.kind === 'lock.acquired' && e.data.ttlMs)).toEqual([2000, 2000]);
      // A's lease ran out at 2 s and B took the lock with the next token; A, still working,
      // writes with token 1 at 3 s and B with token 2 at 5 s. The strict resource accepts both
      // (each token is higher than any before it): fencing orders the writes, two workers wrote.
      const writes = trace.flatMap((e) =>
        e.kind === 'resource.write' ? [[e.data.from, e.data.token, e.data.accepted]] : [],
      );
      expect(writes).toEqual([
        ['A', 1, true],
        ['B', 2, true],
      ]);
    },
  ],
]);

describe.concurrent('reality check: step lists', () => {
  for (const [spec, options] of HEADLINES) {
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      const check = await realityCheck(scenario(spec), options);
      // The run's story has room for the machine's lateness at this scale (timingSensitivity.ts).
      expect(check.sensitivity).toBeNull();
      expect(
        check.inconclusive,
        `the script landed ${check.run.scheduleSlipMs.toFixed(1)} ms late in each of ${check.attempts} runs`,
      ).toBe(false);
      const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
      expect(check.differ, table).toEqual([]);
      expect(check.run.trace.some((e) => e.kind === 'lease.granted')).toBe(true);
      // Every step of every list ran, as in the simulator (a retried step counts each try).
      const sim = await runScenarioTrace(scenario(spec));
      const starts = (trace: readonly TraceEvent[]) =>
        new Set(trace.flatMap((e) => (e.kind === 'step.start' ? [`${e.actor} ${e.data.index}`] : [])));
      expect(starts(check.run.trace)).toEqual(starts(sim.trace));
      STORIES.get(spec)?.(check.run.trace);
    });
  }

  it('names a command it cannot scale, and runs it at real time', async () => {
    const shortTtl = scenario('lessons/43-clinic-short-ttl.md#clinic-short-ttl');
    const refused = await runReality(shortTtl, { scale: 0.25 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnsupportedScenario);
    expect((refused as UnsupportedScenario).reasons).toEqual([
      expect.stringMatching(/^client A, step 1 \(EVAL\): .*run it with --scale 1$/),
      expect.stringMatching(/^client B, step 1 \(EVAL\): .*run it with --scale 1$/),
    ]);
  });
});
