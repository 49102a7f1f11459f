import { assign, setup, type SnapshotFrom } from 'xstate';

/** A client's circuit breaker settings, resolved from its scenario entry (`breaker:`). */
export interface BreakerOptions {
  /** Unanswered tries in a row that open the circuit. */
  failures: number;
  /** How long the circuit stays open before it lets one trial call through, in local ms. */
  coolDownMs: number;
}

export type CircuitBreakerEvent =
  /** Redis answered a call (a taken lock is an answer too: the server is there). */
  | { type: 'SUCCEEDED' }
  /** A call got no answer in time. */
  | { type: 'FAILED' };

/**
 * A circuit breaker around a lock client's calls to Redis. `closed`: calls go through, and
 * unanswered ones are counted; `failures` in a row open it. `open`: the client fails fast,
 * without calling Redis, so a server that is down (or drowning) is not buried under retries;
 * after `coolDownMs` it turns `halfOpen`. `halfOpen`: the next call is a trial; an answer
 * closes the circuit, silence opens it again for another cool-down.
 *
 * LockClient asks the snapshot whether to call at all and reports each real call's outcome;
 * the cool-down is the machine's own `after` delay, on the process clock (it freezes while
 * the client is paused, and dies with it on a crash).
 */
export const circuitBreakerMachine = setup({
  types: {
    context: {} as BreakerOptions & { failedInRow: number },
    events: {} as CircuitBreakerEvent,
    input: {} as BreakerOptions,
  },
  actions: {
    countFailure: assign({ failedInRow: ({ context }) => context.failedInRow + 1 }),
    forgetFailures: assign({ failedInRow: 0 }),
  },
  delays: {
    coolDown: ({ context }) => context.coolDownMs,
  },
  guards: {
    // Checked as the failure arrives, before it is counted.
    lastStraw: ({ context }) => context.failedInRow + 1 >= context.failures,
  },
}).createMachine({
  id: 'circuitBreaker',
  context: ({ input }) => ({ ...input, failedInRow: 0 }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        FAILED: [{ guard: 'lastStraw', target: 'open', actions: 'forgetFailures' }, { actions: 'countFailure' }],
        SUCCEEDED: { actions: 'forgetFailures' },
      },
    },
    open: { after: { coolDown: 'halfOpen' } },
    halfOpen: {
      on: {
        SUCCEEDED: 'closed',
        FAILED: 'open',
      },
    },
  },
});

export type CircuitBreakerState = 'closed' | 'open' | 'halfOpen';

/** The breaker's state from its snapshot. */
export function breakerState(snapshot: SnapshotFrom<typeof circuitBreakerMachine>): CircuitBreakerState {
  return snapshot.value as CircuitBreakerState;
}

/**
 * What a lock client's lane shows while its breaker is not closed, in place of `acquiring`
 * and `retrying` (a closed breaker shows nothing of its own: the client's usual states).
 * - `circuit-open`: tries fail at once, without a call to Redis, until the cool-down ends.
 * - `half-open`: the cool-down is over; the next try is the one trial call.
 */
export const CIRCUIT_BREAKER_LANE_STATES = ['circuit-open', 'half-open'] as const;

export type CircuitBreakerLaneState = (typeof CIRCUIT_BREAKER_LANE_STATES)[number];

/** The lane word for a breaker state, or null when the breaker is closed. */
export function breakerLaneState(state: CircuitBreakerState): CircuitBreakerLaneState | null {
  return state === 'open' ? 'circuit-open' : state === 'halfOpen' ? 'half-open' : null;
}
