import { and, setup, type AnyActorRef } from 'xstate';
import { ELECTION_TIMEOUT_MS } from './sentinelTiming';

/** What a sentinel's machine needs to decide: its group's settings, fixed for its life. */
export interface SentinelContext {
  /** Sentinels (itself included) that must think the primary is down for it to be objectively down. */
  quorum: number;
  /** Votes a candidate needs to lead a failover: the quorum, and at least a majority of all sentinels. */
  votesNeeded: number;
  /** How long a candidate waits for votes before it gives the election up. */
  electionTimeoutMs: number;
  /** How long the leader waits for the chosen replica to become primary before it aborts. */
  failoverTimeoutMs: number;
}

/** The context for a group's settings and its number of sentinels. */
export function sentinelContext(
  { quorum, failoverTimeoutMs }: { quorum: number; failoverTimeoutMs: number },
  sentinelCount: number,
): SentinelContext {
  return {
    quorum,
    votesNeeded: Math.max(quorum, Math.floor(sentinelCount / 2) + 1),
    electionTimeoutMs: Math.min(ELECTION_TIMEOUT_MS, failoverTimeoutMs),
    failoverTimeoutMs,
  };
}

export type SentinelEvent =
  /** A node answered INFO: a sentinel in `monitoring` re-points the strays whose time has come. */
  | { type: 'INFO' }
  /** The primary has not answered PINGs for down-after-milliseconds. */
  | { type: 'SDOWN' }
  /** The primary answered again. */
  | { type: 'UP' }
  /** Time to ask the other sentinels about the primary (and, while electing, for their votes). */
  | { type: 'ASK' }
  /**
   * `votes` sentinels (itself included, fresh answers only) think the primary is down;
   * `mayRun`: no failover attempt was made (or voted for) too recently to start another.
   */
  | { type: 'OPINIONS'; votes: number; mayRun: boolean }
  /** The random delay before running for leader is over (Redis: SENTINEL_MAX_DESYNC). */
  | { type: 'RUN' }
  /** `votes` sentinels (itself included) voted for it in the current epoch. */
  | { type: 'VOTES'; votes: number }
  /** SENTINEL FAILOVER: no agreement and no election needed. */
  | { type: 'MANUAL' }
  /** The chosen replica's INFO reports it a primary (after REPLICAOF NO ONE): it is the primary now. */
  | { type: 'PROMOTED' }
  /** No replica is fit to promote. */
  | { type: 'NO_REPLICA' }
  /** A newer configuration arrived: another sentinel finished a failover. */
  | { type: 'SWITCHED' };

/** The effects a sentinel's machine asks for; bound per actor with `bindSentinelEffects`. */
export interface SentinelEffects {
  /** Records the state the lane shows now (the first thing each state does). */
  show(state: SentinelState): void;
  /** Re-points the strays whose time has come. */
  reconfigureStrays(): void;
  /** Asks the other sentinels whether the primary is down for them; with `forVotes`, also asks for their vote. */
  ask(forVotes: boolean): void;
  /** The objectively-down belief, as the latest opinions say (recorded when it changes). */
  noteOpinions(down: boolean, votes: number): void;
  /** Waits a random delay, then sends RUN. */
  scheduleRun(): void;
  /** Starts a new epoch and votes for itself. */
  startElection(): void;
  noteElected(votes: number, needed: number): void;
  /** Manual: SENTINEL FAILOVER starts a new epoch without an election. */
  startManual(): void;
  /** Chooses a replica and sends it REPLICAOF NO ONE (NO_REPLICA when none is fit). */
  startFailover(manual: boolean): void;
  /** The promoted replica is the primary: publish the configuration and re-point the rest. */
  completeFailover(): void;
  noteFailoverTimedOut(): void;
}

const effectsOf = new WeakMap<AnyActorRef, SentinelEffects>();

/** Binds `effects` to `actor`; call after createActor and before start(). */
export function bindSentinelEffects(actor: AnyActorRef, effects: SentinelEffects): void {
  effectsOf.set(actor, effects);
}

/** Lets go of `actor`'s effects (a released run's machine does nothing more). */
export function unbindSentinelEffects(actor: AnyActorRef): void {
  effectsOf.delete(actor);
}

type Args = { self: AnyActorRef; context: SentinelContext; event: SentinelEvent };
// Unbound (a path test walking the machine as pure logic), effects do nothing.
const effects = (self: AnyActorRef) => effectsOf.get(self);
const votesOf = (event: SentinelEvent) => (event.type === 'OPINIONS' || event.type === 'VOTES' ? event.votes : 0);

/**
 * What one sentinel believes about the primary it monitors, and what it decides to do about it,
 * as the states a learner reads on its timeline lane:
 *
 *   monitoring → subjectively-down (its own PINGs went unanswered for down-after-milliseconds)
 *   → objectively-down (a quorum of sentinels agree) → electing (after a random delay it asks
 *   the others to make it the leader of a new epoch) → failing-over (it won: it promotes a
 *   replica and re-points the rest) → monitoring (the new primary).
 *
 * The machine decides: when the quorum is reached or lost, when to run for leader, whether it
 * won, when the election times out and when the failover is given up, both as `after` delays
 * on the process's clock. The Sentinel class sends the PINGs, questions and votes, carries out
 * the failover, and tells the machine what it saw; it never looks at the state before it does.
 * Each state's first entry action shows it on the lane, so the trace has a state before
 * whatever that state does.
 */
export const sentinelMachine = setup({
  types: {
    context: {} as SentinelContext,
    events: {} as SentinelEvent,
    input: {} as SentinelContext,
  },
  actions: {
    show: ({ self }: Args, params: { state: SentinelState }) => effects(self)?.show(params.state),
    reconfigureStrays: ({ self }: Args) => effects(self)?.reconfigureStrays(),
    askOpinions: ({ self }: Args) => effects(self)?.ask(false),
    // Asking for votes is followed by a count: with enough sentinels already agreed, it has won.
    askForVotes: ({ self }: Args) => effects(self)?.ask(true),
    noteOpinions: ({ self, context, event }: Args) =>
      effects(self)?.noteOpinions(votesOf(event) >= context.quorum, votesOf(event)),
    scheduleRun: ({ self }: Args) => effects(self)?.scheduleRun(),
    startElection: ({ self }: Args) => effects(self)?.startElection(),
    noteElected: ({ self, context, event }: Args) => effects(self)?.noteElected(votesOf(event), context.votesNeeded),
    startManual: ({ self }: Args) => effects(self)?.startManual(),
    startFailover: ({ self, event }: Args) => effects(self)?.startFailover(event.type === 'MANUAL'),
    completeFailover: ({ self }: Args) => effects(self)?.completeFailover(),
    noteFailoverTimedOut: ({ self }: Args) => effects(self)?.noteFailoverTimedOut(),
  },
  guards: {
    quorumReached: ({ context, event }) => votesOf(event) >= context.quorum,
    mayRun: ({ event }) => event.type === 'OPINIONS' && event.mayRun,
    elected: ({ context, event }) => votesOf(event) >= context.votesNeeded,
  },
  delays: {
    electionTimeout: ({ context }) => context.electionTimeoutMs,
    failoverTimeout: ({ context }) => context.failoverTimeoutMs,
  },
}).createMachine({
  id: 'sentinel',
  context: ({ input }) => input,
  initial: 'monitoring',
  // Opinions keep the objectively-down belief current in every state; some states also act on them.
  on: { ASK: { actions: 'askOpinions' }, OPINIONS: { actions: 'noteOpinions' } },
  states: {
    monitoring: {
      entry: { type: 'show', params: { state: 'monitoring' } },
      on: {
        INFO: { actions: 'reconfigureStrays' },
        SDOWN: 'subjectively-down',
        MANUAL: { target: 'failing-over', actions: 'startManual' },
      },
    },
    'subjectively-down': {
      entry: { type: 'show', params: { state: 'subjectively-down' } },
      on: {
        UP: 'monitoring',
        OPINIONS: [
          {
            guard: and(['quorumReached', 'mayRun']),
            target: 'objectively-down',
            actions: ['noteOpinions', 'scheduleRun'],
          },
          { guard: 'quorumReached', target: 'objectively-down', actions: 'noteOpinions' },
          { actions: 'noteOpinions' },
        ],
        MANUAL: { target: 'failing-over', actions: 'startManual' },
        SWITCHED: 'monitoring',
      },
    },
    'objectively-down': {
      entry: { type: 'show', params: { state: 'objectively-down' } },
      on: {
        UP: 'monitoring',
        OPINIONS: [
          { guard: and(['quorumReached', 'mayRun']), actions: ['noteOpinions', 'scheduleRun'] },
          { guard: 'quorumReached', actions: 'noteOpinions' },
          { target: 'subjectively-down', actions: 'noteOpinions' },
        ],
        RUN: { target: 'electing', actions: 'startElection' },
        MANUAL: { target: 'failing-over', actions: 'startManual' },
        SWITCHED: 'monitoring',
      },
    },
    electing: {
      entry: [{ type: 'show', params: { state: 'electing' } }, 'askForVotes'],
      after: { electionTimeout: 'objectively-down' },
      on: {
        ASK: { actions: 'askForVotes' },
        VOTES: { guard: 'elected', target: 'failing-over', actions: 'noteElected' },
        UP: 'monitoring',
        MANUAL: { target: 'failing-over', actions: 'startManual' },
        SWITCHED: 'monitoring',
      },
    },
    // A leader finishes its own failover first: news of another configuration waits until then.
    'failing-over': {
      entry: [{ type: 'show', params: { state: 'failing-over' } }, 'startFailover'],
      after: { failoverTimeout: { target: 'monitoring', actions: 'noteFailoverTimedOut' } },
      on: {
        PROMOTED: { target: 'monitoring', actions: 'completeFailover' },
        NO_REPLICA: 'monitoring',
      },
    },
  },
});

/** Every state a sentinel's lane can show: its machine's states, and `crashed` (the process is down, its machine gone). */
export const SENTINEL_LANE_STATES = [
  'monitoring',
  'subjectively-down',
  'objectively-down',
  'electing',
  'failing-over',
  'crashed',
] as const;

export type SentinelLaneState = (typeof SENTINEL_LANE_STATES)[number];

/** The lane states that are states of the machine. */
export type SentinelState = Exclude<SentinelLaneState, 'crashed'>;
