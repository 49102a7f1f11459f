import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEvent } from '../sim/traceEvents';
import { runReality } from './harness';
import { UnsupportedScenario } from './support';
import { leaseStory } from './leaseStory';
import { realityCheck } from './realityCheck';

/**
 * The headline runs whose lock is an etcd lease (lessons 26 and 39): a real etcd grants the
 * lease and the revision of the put is the fencing token (realLeaseService.ts, etcd.ts). At
 * scale 0.5 a 10 s lease is 5 real seconds, a whole number, as etcd grants them.
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

const writes = (trace: readonly TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'resource.write' ? [[e.data.from, e.data.token, e.data.accepted]] : []));

describe.concurrent('reality check: a lease service on a real etcd', () => {
  for (const spec of [
    'lessons/26-redlock-tokens-or-random-values.md#c2-token-late-write',
    'lessons/39-consensus-lease.md#c3-consensus-pause',
  ])
    it(
      `${spec}: A's lease expires, B's put has the higher revision, and A's late write is refused`,
      {
        timeout: 120_000,
      },
      async () => {
        const check = await realityCheck(scenario(spec), { scale: 0.5 });
        expect(check.sensitivity).toBeNull();
        expect(check.inconclusive).toBe(false);
        const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
        expect(check.differ, table).toEqual([]);
        const trace = check.run.trace;
        // etcd revoked A's lease itself; B deleted its key when it released.
        expect(leaseStory(trace)).toEqual(['A granted', 'A expired', 'B granted', 'B deleted']);
        // The revisions: A's put, the expiry's delete, B's put.
        expect(writes(trace)).toEqual([
          ['B', 4, true],
          ['A', 2, false],
        ]);
      },
    );

  it(
    "lessons/39-consensus-lease.md#c3-consensus-restart: etcd restarted gives the dead holder's lease a fresh TTL",
    { timeout: 120_000 },
    async () => {
      const check = await realityCheck(scenario('lessons/39-consensus-lease.md#c3-consensus-restart'), { scale: 0.5 });
      expect(check.inconclusive).toBe(false);
      expect(check.differ).toEqual([]);
      const trace = check.run.trace;
      expect(leaseStory(trace)).toEqual(['A granted', 'A expired', 'B granted', 'B deleted']);
      // A crashed at 2 s, etcd at 7 s, back at 8 s: A's lease, due at 10 s, lasts ten seconds
      // from etcd's return, and only then does B get in.
      const ended = trace.find((e) => e.kind === 'lease.ended' && e.data.owner === 'A')!;
      const acquired = trace.find((e) => e.kind === 'lock.acquired' && e.actor === 'B')!;
      expect(ended.at).toBeGreaterThanOrEqual(18_000);
      expect(acquired.at).toBeGreaterThan(ended.at);
      expect(writes(trace)).toEqual([['B', 4, true]]);
    },
  );

  it('refuses a lease etcd cannot grant at the scale, and a clock jump on the service', async () => {
    const late = scenario('lessons/26-redlock-tokens-or-random-values.md#c2-token-late-write');
    const quarter = await runReality(late, { scale: 0.25 }).catch((error: unknown) => error);
    expect(quarter).toBeInstanceOf(UnsupportedScenario);
    expect((quarter as UnsupportedScenario).reasons).toEqual([
      expect.stringContaining('client A: a lease of 2.5 s at scale 0.25: etcd grants whole seconds'),
      expect.stringContaining('client B: a lease of 2.5 s at scale 0.25'),
    ]);
    const jumped = { ...late, script: [{ at: 1000, do: 'clock-jump', target: 'etcd', by: 20_000 }] } as Scenario;
    const refused = await runReality(jumped, { scale: 0.5 }).catch((error: unknown) => error);
    expect((refused as UnsupportedScenario).reasons).toEqual([
      "script 'clock-jump' at 1000 ms on the lease service etcd (etcd reads its clock past libfaketime): not yet supported",
    ]);
  });
});
