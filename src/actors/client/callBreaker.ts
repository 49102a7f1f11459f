import { createActor, type Actor } from 'xstate';
import {
  breakerLaneState,
  breakerState,
  circuitBreakerMachine,
  type BreakerOptions,
  type CircuitBreakerLaneState,
} from './circuitBreakerMachine';
import type { MachineTies } from '../process/machineTies';
import type { Process } from '../process/process';
import { ProcessClock } from '../process/processClock';
import type { AcquireResult } from '../recipes/recipe';

/**
 * The circuit breaker around a lock client's acquire calls (`breaker:`): the breaker machine on
 * the process's clock, told how each real call went. While it is open the client fails fast
 * instead of asking Redis.
 */
export class CallBreaker {
  private constructor(private readonly actor: Actor<typeof circuitBreakerMachine>) {}

  /** A closed breaker, started now; `changed` hears every change (its cool-down can end during a retry pause). */
  static start(process: Process, options: BreakerOptions, ties: MachineTies, changed: () => void): CallBreaker {
    const clock = new ProcessClock(process);
    const actor = createActor(circuitBreakerMachine, { input: options, clock });
    const subscription = actor.subscribe(changed);
    ties.add(() => {
      subscription.unsubscribe();
      clock.release();
    });
    actor.start();
    return new CallBreaker(actor);
  }

  /** Open: calls fail fast, Redis is not asked. */
  isOpen(): boolean {
    return breakerState(this.actor.getSnapshot()) === 'open';
  }

  /** What the client's lane shows instead of `acquiring`/`retrying` (`circuit-open`, `half-open`), or null when closed. */
  laneState(): CircuitBreakerLaneState | null {
    return breakerLaneState(breakerState(this.actor.getSnapshot()));
  }

  /** A real call's answer: silence counts against Redis, any answer for it. */
  heard(result: AcquireResult): void {
    this.actor.send({ type: !result.ok && result.reason === 'timeout' ? 'FAILED' : 'SUCCEEDED' });
  }

  stop(): void {
    this.actor.stop();
  }
}
