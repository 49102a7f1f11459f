import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../cli/loadScenario';
import type { ScriptEngine } from '../../redis/scriptEngine';
import type { TraceEvent } from '../../sim/traceEvents';
import { loadScriptEngine } from './run';
import type { Scenario } from '../schema/schema';
import { Simulation, type RunOptions } from './simulation';
import { simTime } from '../../sim/time';

let scenario: Scenario;
let scripts: ScriptEngine;

beforeAll(async () => {
  const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  scenario = loaded.scenario;
  scripts = await loadScriptEngine();
});

function run(options: RunOptions = {}) {
  const simulation = new Simulation(scenario, options, scripts).run();
  const events = simulation.sim.trace.toArray();
  const of = <K extends TraceEvent['kind']>(kind: K) =>
    events.filter((e): e is Extract<TraceEvent, { kind: K }> => e.kind === kind);
  return { simulation, events, of, verdict: simulation.verdicts().find((v) => v.invariant === 'single-writer')! };
}

describe('the paused barista, unfenced', () => {
  it('lets both baristas write: exactly one single-writer violation, at about 17 s', () => {
    const { verdict, events } = run();
    expect(verdict.holds).toBe(false);
    expect(verdict.violations).toBe(1);
    expect(verdict.atMs).toBeGreaterThanOrEqual(17_000);
    expect(verdict.atMs).toBeLessThan(17_100);
    // The proof: B takes the lock, B writes, A (back from its pause, still believing) writes.
    const [taken, first, second] = verdict.eventIds.map((id) => events[id]!);
    expect(taken).toMatchObject({ kind: 'lock.acquired', actor: 'B' });
    expect(first).toMatchObject({ kind: 'resource.write', data: { from: 'B', accepted: true } });
    expect(second).toMatchObject({ kind: 'resource.write', data: { from: 'A', accepted: true } });
    expect(verdict.explanation).toBe(
      'Barista B took the lock at 11.004 s while Barista A still believed it held it; Barista A wrote at 17.008 s and Barista B at 13.006 s, and both writes were accepted.',
    );
  });

  it('shows the lease as Redis sees it: A until 10 s, then B from 11 s', () => {
    const { of } = run();
    const granted = of('lease.granted').map((e) => [e.data.owner, Math.round(e.at / 1000)]);
    const ended = of('lease.ended').map((e) => [e.data.owner, e.data.reason, Math.round(e.at / 1000)]);
    expect(granted).toEqual([
      ['A', 0],
      ['B', 11],
    ]);
    expect(ended[0]).toEqual(['A', 'expired', 10]);
  });

  it('freezes A for 15 s: it asks to write only after waking at 17 s, still believing it holds the lock', () => {
    const { of } = run();
    const aRequest = of('resource.request').find((e) => e.actor === 'A')!;
    expect(aRequest.at).toBeGreaterThanOrEqual(17_000);
    const aAcquired = of('lock.acquired').filter((e) => e.actor === 'A');
    const aReleased = of('lock.released').find((e) => e.actor === 'A')!;
    expect(aAcquired).toHaveLength(1);
    // The checked release finds B's value (or nothing) and deletes nothing.
    expect(aReleased.data.deleted).toBe(false);
  });
});

describe('the paused barista, fenced', () => {
  it("rejects A's stale write and keeps the single-writer invariant", () => {
    const { verdict, of } = run({ fencing: true });
    expect(verdict.holds).toBe(true);
    const writes = of('resource.write').map((e) => [e.data.from, e.data.token, e.data.accepted]);
    expect(writes).toEqual([
      ['B', 2, true],
      ['A', 1, false],
    ]);
    expect(of('resource.write').find((e) => e.data.from === 'A')!.data.reason).toBe('stale token 1 < 2');
  });
});

describe('determinism', () => {
  it('gives the same trace hash for the same seed and actions, every time', () => {
    const actions: RunOptions['actions'] = [{ at: simTime(5000), do: 'pause', target: 'B', forMs: 1000 }];
    expect(run({ seed: 7, actions }).simulation.sim.trace.hash()).toBe(
      run({ seed: 7, actions }).simulation.sim.trace.hash(),
    );
  });

  it('draws different network delays for a different seed', () => {
    expect(run({ seed: 7 }).simulation.sim.trace.hash()).not.toBe(run({ seed: 8 }).simulation.sim.trace.hash());
  });

  it('lets a learner action change the future but not the past', () => {
    const plain = run().events;
    const changed = run({ actions: [{ at: simTime(12_000), do: 'crash', target: 'B' }] }).events;
    const before = (events: TraceEvent[]) => JSON.stringify(events.filter((e) => e.at < 12_000));
    expect(before(changed)).toBe(before(plain));
    expect(changed.some((e) => e.kind === 'process.crash' && e.actor === 'B')).toBe(true);
  });
});
