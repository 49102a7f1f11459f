import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../cli/loadScenario';
import type { ScriptEngine } from '../../redis/scriptEngine';
import { loadScriptEngine } from './run';
import type { Scenario } from '../schema/schema';
import { Simulation } from './simulation';
import { Rewindable } from './timeTravel';
import type { Action } from '../../actors/action';
import { simTime } from '../../sim/time';

let scenario: Scenario;
let scripts: ScriptEngine;

beforeAll(async () => {
  const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  scenario = loaded.scenario;
  scripts = await loadScriptEngine();
});

/** Random learner actions of every kind, at random times in the first 20 s. */
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('pause' as const),
    target: fc.constantFrom('A', 'B', 'r1'),
    forMs: fc.integer({ min: 1, max: 15_000 }),
  }),
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('crash' as const),
    target: fc.constantFrom('A', 'B', 'r1'),
  }),
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('restart' as const),
    target: fc.constantFrom('A', 'B', 'r1'),
  }),
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('clock-jump' as const),
    target: fc.constantFrom('A', 'r1'),
    byMs: fc.integer({ min: -5_000, max: 15_000 }),
  }),
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('partition' as const),
    groups: fc.constant([['A'], ['r1']] as string[][]),
    oneWay: fc.boolean(),
  }),
  fc.record({ at: fc.integer({ min: 0, max: 20_000 }).map(simTime), do: fc.constant('heal' as const) }),
  fc.record({
    at: fc.integer({ min: 0, max: 20_000 }).map(simTime),
    do: fc.constant('network' as const),
    loss: fc.double({ min: 0, max: 0.5, noNaN: true }),
    duplicate: fc.double({ min: 0, max: 0.5, noNaN: true }),
  }),
);
const runArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 }),
  actions: fc.array(actionArb, { maxLength: 6 }),
  fencing: fc.boolean(),
});

const eventsOf = (s: Simulation) => JSON.stringify(s.sim.trace.toArray());

describe('determinism and time travel (property tests)', () => {
  it('replaying a run (scenario, seed, actions) gives the same trace, event for event', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const a = new Simulation(scenario, run, scripts).run();
        const b = new Simulation(scenario, run, scripts).run();
        expect(eventsOf(b)).toBe(eventsOf(a));
        expect(b.sim.trace.hash()).toBe(a.sim.trace.hash());
      }),
      { numRuns: 40 },
    );
  });

  it('stepping back and then forward again equals stepping straight forward', () => {
    fc.assert(
      fc.property(runArb, fc.integer({ min: 0, max: 150 }), fc.integer({ min: 1, max: 60 }), (run, forward, back) => {
        const straight = new Rewindable(scenario, run, scripts);
        straight.seek(forward);
        const rewound = new Rewindable(scenario, run, scripts);
        rewound.seek(forward + back);
        // A short run may end before forward + back: step back exactly as far as it went.
        rewound.stepBack(rewound.position - straight.position);
        expect(rewound.position).toBe(straight.position);
        expect(eventsOf(rewound.simulation)).toBe(eventsOf(straight.simulation));
        // And onwards to the end, both arrive at the same run.
        straight.seek(Infinity);
        rewound.seek(Infinity);
        expect(eventsOf(rewound.simulation)).toBe(eventsOf(straight.simulation));
      }),
      { numRuns: 40 },
    );
  });
});

describe('caps', () => {
  it('stops a runaway run at the event cap with a plain verdict, never hanging', () => {
    const s = new Simulation(scenario, { maxEvents: 25 }, scripts).run();
    expect(s.ended).toBe('event-cap');
    const v = s.verdicts().find((x) => x.invariant === 'run-completes')!;
    expect(v.holds).toBe(false);
    expect(v.explanation).toMatch(/stopped after 25 events/);
  });

  it('stops at the virtual-time horizon with a verdict naming it', () => {
    const s = new Simulation({ ...scenario, horizon: 12_000 }, {}, scripts).run();
    expect(s.ended).toBe('time-cap');
    expect(s.sim.now).toBeLessThanOrEqual(12_000);
    expect(s.verdicts().find((x) => x.invariant === 'run-completes')!.explanation).toMatch(/horizon of 12 s/);
  });
});
