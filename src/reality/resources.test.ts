import { describe, expect, it } from 'vitest';
import { loadScenario } from '../cli/loadScenario';
import type { Scenario } from '../scenario/schema/schema';
import type { TraceEvent } from '../sim/traceEvents';
import { realityCheck, type CheckOptions } from './realityCheck';

/**
 * The headline runs whose resource is not a store: lesson 12's and 25's payment provider and
 * lesson 19's dispatch service, each the simulator's own resource class in the real resource
 * service (resourceProcess.ts), read first and then charged or assigned by real clients.
 */
function scenario(spec: string): Scenario {
  const loaded = loadScenario(spec);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.scenario;
}

/** Each change the resource decided: who, what, and whether it was applied. */
const changes = (trace: readonly TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'resource.write' ? [[e.data.from, e.data.op, e.data.accepted]] : []));

async function agrees(spec: string, options: CheckOptions): Promise<readonly TraceEvent[]> {
  const check = await realityCheck(scenario(spec), options);
  expect(check.sensitivity).toBeNull();
  expect(check.inconclusive).toBe(false);
  const table = check.pairs.map((p) => `${p.invariant}: sim ${p.sim?.holds} real ${p.real?.holds}`).join('; ');
  expect(check.differ, table).toEqual([]);
  return check.run.trace;
}

describe.concurrent('reality check: a payment provider', () => {
  for (const spec of [
    'lessons/12-billing-charge.md#double-charge',
    'lessons/25-efficiency-or-correctness.md#c2-card-single-lease',
  ])
    it(
      `${spec}: both workers find the order unpaid and charge it, as in the simulator`,
      { timeout: 120_000 },
      async () => {
        const trace = await agrees(spec, { scale: 0.25 });
        // Each read the order unpaid before charging: A before its pause, B while A was paused.
        const reads = trace.flatMap((e) => (e.kind === 'resource.read' ? [[e.data.from, e.data.value]] : []));
        expect(reads).toEqual([
          ['A', expect.stringMatching(/ unpaid$/)],
          ['B', expect.stringMatching(/ unpaid$/)],
        ]);
        expect(changes(trace)).toEqual([
          ['B', 'charge', true],
          ['A', 'charge', true],
        ]);
      },
    );

  it(
    'lessons/12-billing-charge.md#double-charge-idempotent: the provider answers the repeat with the first charge',
    { timeout: 120_000 },
    async () => {
      const trace = await agrees('lessons/12-billing-charge.md#double-charge-idempotent', { scale: 0.25 });
      expect(changes(trace)).toEqual([
        ['B', 'charge', true],
        ['A', 'charge', false],
      ]);
      const repeat = trace.find((e) => e.kind === 'resource.write' && !e.data.accepted);
      expect(repeat?.kind === 'resource.write' && repeat.data.reason).toMatch(
        /^idempotency key order-\d+ already used/,
      );
    },
  );
});

/**
 * A row guarded by the lock's random value (Redlock's author's proposal, lessons 24 and 26):
 * each client's claim and writes carry its real lock value, which the row stamps and compares.
 */
describe.concurrent('reality check: a row that compares lock values', () => {
  for (const spec of [
    'lessons/24-redlock-counter-arguments.md#c2-random-value-pause',
    'lessons/24-redlock-counter-arguments.md#c2-random-value-late-claim',
    'lessons/26-redlock-tokens-or-random-values.md#c2-random-value-before-newer-write',
  ])
    it(`${spec}: real processes give the simulator's verdicts`, { timeout: 120_000 }, async () => {
      const trace = await agrees(spec, { scale: 0.25 });
      // Every claim stamped the claimer's own value, the one its process drew.
      for (const e of trace)
        if (e.kind === 'resource.read') {
          const acquired = trace.find((a) => a.kind === 'lock.acquired' && a.actor === e.data.from);
          expect(e.data.value).toContain(`owner = ${acquired?.kind === 'lock.acquired' ? acquired.data.value : '?'}`);
        }
    });
});

describe('reality check: a dispatch service', () => {
  it(
    'lessons/19-delivery-dispatch.md#dispatch-incident: two drivers are sent for one order',
    { timeout: 120_000 },
    async () => {
      // Sentinel runs at real time (support.ts), after the payment runs, so it never shares the machine with them.
      const trace = await agrees('lessons/19-delivery-dispatch.md#dispatch-incident', { scale: 1 });
      expect(changes(trace)).toEqual([
        ['A', 'assign', true],
        ['B', 'assign', true],
      ]);
    },
  );
});
