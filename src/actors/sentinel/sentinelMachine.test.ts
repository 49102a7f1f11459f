import { describe, expect, it } from 'vitest';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';
import { sentinelMachine, type SentinelEvent, type SentinelState } from './sentinelMachine';

const input = { quorum: 2, votesNeeded: 2, electionTimeoutMs: 10_000, failoverTimeoutMs: 10_000 };

/** Every event, with a payload for each way a guard can decide. */
const events: SentinelEvent[] = [
  { type: 'TICK' },
  { type: 'SDOWN' },
  { type: 'UP' },
  { type: 'ASK' },
  { type: 'OPINIONS', votes: 1, mayRun: true },
  { type: 'OPINIONS', votes: 2, mayRun: true },
  { type: 'OPINIONS', votes: 2, mayRun: false },
  { type: 'RUN' },
  { type: 'VOTES', votes: 1 },
  { type: 'VOTES', votes: 2 },
  { type: 'MANUAL' },
  { type: 'PROMOTED' },
  { type: 'NO_REPLICA' },
  { type: 'SWITCHED' },
];

/**
 * The sentinel's specification, one line per transition: what a learner should see a sentinel
 * do. '-' keeps the state (the transition only acts); '*' is any state.
 */
const SPEC = [
  // Opinions keep the objectively-down belief current anywhere; questions go out from anywhere.
  '* --ASK--> -',
  '* --OPINIONS--> -',
  'monitoring --TICK--> -',
  'monitoring --SDOWN--> subjectively-down',
  'monitoring --MANUAL--> failing-over',
  'subjectively-down --UP--> monitoring',
  'subjectively-down --OPINIONS--> objectively-down',
  'subjectively-down --OPINIONS--> -',
  'subjectively-down --MANUAL--> failing-over',
  'subjectively-down --SWITCHED--> monitoring',
  'objectively-down --UP--> monitoring',
  // The quorum is lost: only its own PINGs say the primary is down.
  'objectively-down --OPINIONS--> subjectively-down',
  'objectively-down --OPINIONS--> -',
  'objectively-down --RUN--> electing',
  'objectively-down --MANUAL--> failing-over',
  'objectively-down --SWITCHED--> monitoring',
  'electing --ASK--> -',
  'electing --VOTES--> failing-over',
  'electing --after electionTimeout--> objectively-down',
  // The primary came back while the sentinel was asking for votes: there is nothing to fail over.
  'electing --UP--> monitoring',
  'electing --MANUAL--> failing-over',
  'electing --SWITCHED--> monitoring',
  'failing-over --PROMOTED--> monitoring',
  'failing-over --NO_REPLICA--> monitoring',
  'failing-over --after failoverTimeout--> monitoring',
];

describe('the sentinel machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(sentinelMachine, [input], events)).toEqual([...SPEC].sort());
  });

  it('reaches every state a lane can show from monitoring', () => {
    const states: SentinelState[] = ['monitoring', 'subjectively-down', 'objectively-down', 'electing', 'failing-over'];
    const paths = shortestPaths(sentinelMachine, [input], events);
    expect([...paths.keys()].sort()).toEqual(states.map((s) => JSON.stringify(s)).sort());
    expect(paths.get('"electing"')!.slice(-3)).toEqual(['SDOWN', 'OPINIONS', 'RUN']);
  });
});
