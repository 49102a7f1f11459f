import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  breakerState,
  circuitBreakerMachine,
  type BreakerOptions,
  type CircuitBreakerEvent,
} from './circuitBreakerMachine';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';

/** A breaker that opens on the first failure and one that needs three, so the guard decides both ways. */
const inputs: BreakerOptions[] = [
  { failures: 1, coolDownMs: 100 },
  { failures: 3, coolDownMs: 100 },
];

const events: CircuitBreakerEvent[] = [{ type: 'SUCCEEDED' }, { type: 'FAILED' }];

/** The circuit breaker's specification, one line per transition (see circuitBreakerMachine.ts). */
const SPEC = [
  // Enough unanswered calls in a row open it; fewer are counted; an answer forgets them.
  'closed --FAILED--> open',
  'closed --FAILED--> -',
  'closed --SUCCEEDED--> -',
  // After the cool-down, one trial call decides.
  'open --after coolDown--> halfOpen',
  'halfOpen --SUCCEEDED--> closed',
  'halfOpen --FAILED--> open',
];

describe('the circuit breaker machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(circuitBreakerMachine, inputs, events)).toEqual([...SPEC].sort());
  });

  it('opens only after the set number of failures in a row, and closes after one good trial', () => {
    const three = shortestPaths(circuitBreakerMachine, [inputs[1]], events);
    expect(three.get('"open"')).toEqual(['xstate.init', 'FAILED', 'FAILED', 'FAILED']);
    expect(three.get('"halfOpen"')).toEqual(['xstate.init', 'FAILED', 'FAILED', 'FAILED', 'after coolDown']);
    const paths = shortestPaths(circuitBreakerMachine, inputs, events);
    for (const state of ['closed', 'open', 'halfOpen']) expect(paths.has(JSON.stringify(state)), state).toBe(true);
  });
});

/**
 * The breaker's state after `steps` (an event, or a number of ms for the clock to move), from a
 * fresh breaker that opens on the third failure in a row and cools down for 100 ms.
 */
function stateAfter(steps: (CircuitBreakerEvent['type'] | number)[]): string {
  const clock = new SimulatedClock();
  const actor = createActor(circuitBreakerMachine, { input: inputs[1], clock }).start();
  for (const step of steps) {
    if (typeof step === 'number') clock.increment(step);
    else actor.send({ type: step });
  }
  const state = breakerState(actor.getSnapshot());
  actor.stop();
  return state;
}

describe('the circuit breaker counts failures in a row', () => {
  it('forgets the failures before an answer: two, an answer, two more leave it closed', () => {
    expect(stateAfter(['FAILED', 'FAILED', 'SUCCEEDED', 'FAILED', 'FAILED'])).toBe('closed');
    expect(stateAfter(['FAILED', 'FAILED', 'SUCCEEDED', 'FAILED', 'FAILED', 'FAILED'])).toBe('open');
  });

  it('starts counting afresh once a trial has closed it: one failure then does not reopen it', () => {
    const reclosed: (CircuitBreakerEvent['type'] | number)[] = ['FAILED', 'FAILED', 'FAILED', 100, 'SUCCEEDED'];
    expect(stateAfter(reclosed)).toBe('closed');
    expect(stateAfter([...reclosed, 'FAILED', 'FAILED'])).toBe('closed');
    expect(stateAfter([...reclosed, 'FAILED', 'FAILED', 'FAILED'])).toBe('open');
  });
});
