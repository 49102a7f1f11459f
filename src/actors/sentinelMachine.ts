import { setup } from 'xstate';

/**
 * What one sentinel believes about the primary it monitors, as the states a learner reads on
 * its timeline lane:
 *
 *   monitoring → subjectively-down (its own PINGs went unanswered for down-after-milliseconds)
 *   → objectively-down (a quorum of sentinels agree) → electing (it asked the others to make it
 *   the leader of a new epoch) → failing-over (it won: it promotes a replica and re-points the
 *   rest) → monitoring (the new primary).
 *
 * The machine only decides; the Sentinel class sends the PINGs and votes and carries out the
 * failover, and tells the machine what happened. Any state goes back to monitoring when the
 * sentinel learns a newer configuration (another sentinel finished a failover).
 */
export type SentinelEvent =
  | { type: 'SDOWN' }
  | { type: 'UP' }
  | { type: 'ODOWN' }
  | { type: 'NOT_ODOWN' }
  | { type: 'ELECTION' }
  | { type: 'ELECTED' }
  | { type: 'LOST' }
  /** SENTINEL FAILOVER: no agreement and no election needed. */
  | { type: 'MANUAL' }
  | { type: 'DONE' }
  | { type: 'ABORT' }
  /** A newer configuration arrived: the group has a new primary. */
  | { type: 'SWITCHED' };

export const sentinelMachine = setup({
  types: { events: {} as SentinelEvent },
}).createMachine({
  id: 'sentinel',
  initial: 'monitoring',
  on: { SWITCHED: '.monitoring' },
  states: {
    monitoring: { on: { SDOWN: 'subjectively-down', MANUAL: 'failing-over' } },
    'subjectively-down': { on: { UP: 'monitoring', ODOWN: 'objectively-down', MANUAL: 'failing-over' } },
    'objectively-down': {
      on: { UP: 'monitoring', NOT_ODOWN: 'subjectively-down', ELECTION: 'electing', MANUAL: 'failing-over' },
    },
    electing: { on: { ELECTED: 'failing-over', LOST: 'objectively-down', UP: 'monitoring', MANUAL: 'failing-over' } },
    'failing-over': { on: { DONE: 'monitoring', ABORT: 'monitoring' } },
  },
});

/** The state names, for lane labels and tests. */
export type SentinelState = 'monitoring' | 'subjectively-down' | 'objectively-down' | 'electing' | 'failing-over';
