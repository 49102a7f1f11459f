import { createActor } from 'xstate';
import { breakerState, circuitBreakerMachine } from '../actors/client/circuitBreakerMachine';
import type { Acquired } from './realRecipe';

/**
 * The simulator's own circuit breaker machine (circuitBreakerMachine.ts) in a real client, on
 * XState's real clock: its cool-down is a real timer, which keeps its deadline through a SIGSTOP
 * as the simulated one does through a pause. One machine, two worlds.
 */
export function realBreaker(failures: number, coolDownRealMs: number) {
  const actor = createActor(circuitBreakerMachine, { input: { failures, coolDownMs: coolDownRealMs } }).start();
  return {
    /** Open: the client fails fast, without asking Redis. */
    isOpen: () => breakerState(actor.getSnapshot()) === 'open',
    /** A real call's answer, as CallBreaker tells it: silence counts against Redis, any answer for it. */
    heard: (result: Acquired) =>
      actor.send({ type: !result.ok && result.reason === 'timeout' ? 'FAILED' : 'SUCCEEDED' }),
    stop: () => actor.stop(),
  };
}
