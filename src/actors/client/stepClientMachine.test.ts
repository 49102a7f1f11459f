import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';
import { bindStepEffects, stepClientMachine, type StepClientEvent, type StepClientInput } from './stepClientMachine';

/** Lists that take every way from one step to the next: none, only waits, only commands, and both. */
const inputs: StepClientInput[] = [
  { waits: [] },
  { waits: [5, 5] },
  { waits: [null, null] },
  { waits: [null, 5, null] },
];
const events: StepClientEvent[] = [{ type: 'START' }, { type: 'NEXT' }, { type: 'STOP' }];

/** The step client's specification, one line per transition taken on an event or a delay. */
const SPEC = [
  'idle --START--> done',
  'idle --START--> running',
  'idle --START--> waiting',
  'running --NEXT--> done',
  'running --NEXT--> running',
  'running --NEXT--> waiting',
  'running --STOP--> failed',
  'waiting --after waitDelay--> done',
  'waiting --after waitDelay--> running',
  'waiting --after waitDelay--> waiting',
];

describe('the step client machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(stepClientMachine, inputs, events)).toEqual([...SPEC].sort());
  });

  it('runs, waits and runs again to the end of its list, or stops', () => {
    const paths = shortestPaths(stepClientMachine, [{ waits: [null, 5, null] }], events);
    expect(paths.get('"done"')).toEqual(['xstate.init', 'START', 'NEXT', 'after waitDelay', 'NEXT']);
    expect(paths.get('"failed"')).toEqual(['xstate.init', 'START', 'STOP']);
    // Every state the machine rests in is one its lane shows.
    expect([...paths.keys()].sort()).toEqual(['"done"', '"failed"', '"idle"', '"running"', '"waiting"']);
  });
});

/**
 * Runs a step list through `steps` (an event, or a number of ms for the clock to move) and
 * returns, per step, the effects the machine asked for (with the step's index) and its state.
 */
function effectsOf(waits: (number | null)[], steps: (StepClientEvent['type'] | number)[]): string[] {
  const clock = new SimulatedClock();
  const actor = createActor(stepClientMachine, { input: { waits }, clock });
  const asked: string[] = [];
  bindStepEffects(actor, {
    runStep: (i) => asked.push(`runStep(${i})`),
    waitStarted: (i) => asked.push(`waitStarted(${i})`),
    waitEnded: (i) => asked.push(`waitEnded(${i})`),
  });
  actor.start();
  const out: string[] = [];
  for (const step of steps) {
    if (typeof step === 'number') clock.increment(step);
    else actor.send({ type: step });
    out.push(
      `${typeof step === 'number' ? `${step} ms` : step}: ${[...asked.splice(0), '→', actor.getSnapshot().value].join(' ')}`,
    );
  }
  actor.stop();
  return out;
}

describe('the step client machine carries out its list in order', () => {
  it('runs each step, waits each wait for its length, and is done after the last', () => {
    expect(effectsOf([null, 5, 3, null], ['START', 'NEXT', 4, 1, 2, 1, 'NEXT'])).toEqual([
      'START: runStep(0) → running',
      'NEXT: waitStarted(1) → waiting',
      '4 ms: → waiting',
      '1 ms: waitEnded(1) waitStarted(2) → waiting',
      '2 ms: → waiting',
      '1 ms: waitEnded(2) runStep(3) → running',
      'NEXT: → done',
    ]);
  });

  it('runs a step after a step, starting with a wait when the list does, and stops when told', () => {
    expect(effectsOf([null, null], ['START', 'NEXT', 'STOP'])).toEqual([
      'START: runStep(0) → running',
      'NEXT: runStep(1) → running',
      'STOP: → failed',
    ]);
    expect(effectsOf([2], ['START', 2])).toEqual(['START: waitStarted(0) → waiting', '2 ms: waitEnded(0) → done']);
    expect(effectsOf([], ['START'])).toEqual(['START: → done']);
  });
});
