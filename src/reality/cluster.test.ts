import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import { withActions } from '../scenario/schema/scriptActions';
import type { Scenario } from '../scenario/schema/schema';
import { runScenarioTrace } from '../scenario/running/run';
import { simTime } from '../sim/time';
import type { TraceEvent } from '../sim/traceEvents';
import { runReality } from './harness';
import type { UnsupportedScenario } from './support';
import { realityCheck } from './realityCheck';

/**
 * Lesson 11 on a real Redis Cluster: three redis-servers in cluster mode with the scenario's
 * slot map, and clients that send each command to its key's shard (realCluster.ts).
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

const lockEvents = (trace: readonly TraceEvent[], actor: string) =>
  trace.filter((e) => e.actor === actor && (e.kind === 'lock.acquired' || e.kind === 'lock.failed'));

describe.concurrent('reality check: Redis Cluster', () => {
  it(
    'lessons/11#crossslot-until-tagged: the plain-named fenced lock is refused CROSSSLOT, the tagged one is taken',
    { timeout: 120_000 },
    async () => {
      const check = await realityCheck(scenario('lessons/11-cluster-many-locks.md#crossslot-until-tagged'), {
        scale: 0.5,
      });
      expect(check.sensitivity).toBeNull();
      expect(check.differ).toEqual([]);
      const { trace } = check.run;
      expect(lockEvents(trace, 'A').map((e) => [e.kind, (e.data as { error?: string }).error])).toEqual([
        ['lock.failed', "CROSSSLOT Keys in request don't hash to the same slot"],
      ]);
      expect(lockEvents(trace, 'B').map((e) => e.kind)).toEqual(['lock.acquired']);
      // The console's CLUSTER KEYSLOT answers, from the real shard.
      const slots = trace.flatMap((e) =>
        e.kind === 'redis.command' && e.data.from === 'console' ? [e.data.reply] : [],
      );
      expect(slots).toEqual(['(integer) 1504', '(integer) 15469', '(integer) 8688', '(integer) 8688']);
    },
  );

  // The deadlock is left out: it needs both baristas to start within about one round trip, which
  // real processes on a loaded machine do not promise (timingSensitivity.test.ts names it).
  for (const id of ['one-lock-one-shard', 'two-spellings', 'flat-white-ordered'])
    it(`lessons/11#${id}: the verdicts agree`, { timeout: 120_000 }, async () => {
      const check = await realityCheck(scenario(`lessons/11-cluster-many-locks.md#${id}`), { scale: 0.5 });
      expect(check.sensitivity).toBeNull();
      expect(check.inconclusive).toBe(false);
      expect(check.differ).toEqual([]);
    });

  it(
    "a shard restarted at once refuses B for Redis's 2 s, then gives it the lock A still holds: lesson 11's exercise",
    { timeout: 120_000 },
    async () => {
      const actions = [
        { at: simTime(1200), do: 'crash' as const, target: 'r2' },
        { at: simTime(1250), do: 'restart' as const, target: 'r2' },
      ];
      const exercise = withActions(scenario('lessons/11-cluster-many-locks.md#one-lock-one-shard'), actions);
      const [sim, real] = await Promise.all([runScenarioTrace(exercise), runReality(exercise, { scale: 1 })]);
      const bAcquired = (trace: readonly TraceEvent[]) => lockEvents(trace, 'B').map((e) => e.at);
      // Refused until 3.25 s, B has the lock at its next knock (3.5 s simulated; real, within a retry of that).
      expect(bAcquired(sim.trace)).toEqual([expect.any(Number)]);
      const simAt = bAcquired(sim.trace)[0]!;
      expect(simAt).toBeGreaterThanOrEqual(3250);
      const realAt = bAcquired(real.trace);
      expect(realAt).toHaveLength(1);
      expect(realAt[0]!).toBeGreaterThanOrEqual(3250);
      expect(Math.abs(realAt[0]! - simAt)).toBeLessThan(700);
      // A writes after B took the lock, on both sides.
      const aWrite = (trace: readonly TraceEvent[]) =>
        trace.find((e) => e.kind === 'resource.write' && e.data.from === 'A')!.at;
      expect(aWrite(sim.trace)).toBeGreaterThan(simAt);
      expect(aWrite(real.trace)).toBeGreaterThan(realAt[0]!);
    },
  );

  it('refuses a restarted shard below real time, by name', async () => {
    const exercise = withActions(scenario('lessons/11-cluster-many-locks.md#one-lock-one-shard'), [
      { at: simTime(1200), do: 'crash', target: 'r2' },
      { at: simTime(1300), do: 'restart', target: 'r2' },
    ]);
    const refused = await runReality(exercise, { scale: 0.5 }).catch((error: unknown) => error);
    expect((refused as UnsupportedScenario).reasons).toEqual([
      expect.stringContaining(
        "restarting cluster node r2 at scale 0.5: a restarted master refuses writes for Redis's fixed 2 s",
      ),
    ]);
  });
});
