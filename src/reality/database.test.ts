import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEvent } from '../sim/traceEvents';
import { runReality } from './harness';
import { UnsupportedScenario } from './support';
import { leaseStory } from './leaseStory';
import { realityCheck } from './realityCheck';

/**
 * Lesson 38's lock table on a real PostgreSQL (postgres.ts, realDbLock.ts): the database's clock
 * stepped 40 s forward with libfaketime ends A's lease by `now()`, and B takes the row over.
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

const JUMP = 'lessons/38-database-lock-table.md#c3-db-clock-jump';

const writes = (trace: readonly TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'resource.write' ? [[e.data.from, e.data.accepted]] : []));

describe.concurrent('reality check: a lock table on a real PostgreSQL', () => {
  for (const fencing of [false, true])
    it(
      `${JUMP}, fencing ${fencing ? 'on' : 'off'}: the jump of now() hands the row to B`,
      { timeout: 120_000 },
      async () => {
        const jumped = scenario(JUMP);
        const check = await realityCheck({ ...jumped, resource: { ...jumped.resource, fencing } }, { scale: 0.5 });
        expect(check.inconclusive).toBe(false);
        const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
        expect(check.differ, table).toEqual([]);
        const trace = check.run.trace;
        expect(leaseStory(trace)).toEqual(['A granted', 'A expired', 'B granted', 'B deleted']);
        // A's lease ended when the clock jumped, 28 s before its deadline.
        const jump = trace.find((e) => e.kind === 'clock.jump')!;
        const ended = trace.find((e) => e.kind === 'lease.ended')!;
        expect(ended.at - jump.at).toBeLessThan(100);
        // B writes first; A's late write lands without a fence and is refused with one.
        expect(writes(trace)).toEqual([
          ['B', true],
          ['A', !fencing],
        ]);
      },
    );

  it('refuses a row lock held in an open transaction, and a crash of the database', async () => {
    const stall = scenario('lessons/38-database-lock-table.md#c3-db-for-update-stall');
    const refused = await runReality(stall, { scale: 0.5 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnsupportedScenario);
    expect((refused as UnsupportedScenario).reasons).toContain(
      "the database lock db in mode 'for-update' (a row lock in an open transaction): not yet supported",
    );
    const jumped = scenario(JUMP);
    const crashed = { ...jumped, script: [{ at: 1000, do: 'crash', target: 'db' }] } as Scenario;
    const crash = await runReality(crashed, { scale: 0.5 }).catch((error: unknown) => error);
    expect((crash as UnsupportedScenario).reasons).toEqual([
      "script 'crash' at 1000 ms on the database db: not yet supported",
    ]);
  });
});
