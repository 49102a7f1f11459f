import { and, assign, setup, type AnyActorRef, type SnapshotFrom } from 'xstate';
import type { ClientSpec } from './clientSpec';
import type { FailedTry } from './retryPolicy';

/**
 * What a lock client's machine decides with: the client's settings that its guards and delays
 * read (see ClientSpec for each), and two facts from elsewhere. Durations are in the client's
 * local clock. The start time and the work's length are not here: LockClient times those.
 */
export type LockClientInput = Pick<
  ClientSpec,
  'renewEveryMs' | 'onRenewFail' | 'reenter' | 'jobs' | 'onUnavailable'
> & {
  /** The pause before another try at an unanswered renewal. */
  renewRetryMs: number;
  /** Read the resource before working (inventory, payment, dispatch). */
  readsFirst: boolean;
};

/** What the machine decides with, from the client's spec. */
export function lockClientInput(spec: ClientSpec, readsFirst: boolean): LockClientInput {
  const { renewEveryMs, onRenewFail, reenter, jobs, onUnavailable } = spec;
  // An unanswered renewal is tried again ten times per lease, at most.
  const renewRetryMs = Math.max(1, Math.round(spec.ttlMs / 10));
  return { renewEveryMs, onRenewFail, renewRetryMs, reenter, readsFirst, jobs, onUnavailable };
}

/** What a lock client knows and intends: its *belief*; Redis may see things differently. */
export type LockClientContext = LockClientInput & {
  // What happened so far.
  jobsDone: number;
  reentered: number;
};

export type LockClientEvent =
  /** The client's start time came (sent by LockClient on the process's clock). */
  | { type: 'START' }
  /** The lock is held (its fencing token, if any, is LockClient's to keep and send). */
  | { type: 'ACQUIRED' }
  /**
   * The client stopped trying (see `Tries` in retryPolicy.ts, which decides for both client
   * kinds): `failure` says how the last try went, so the machine can tell silence (a reason
   * to go on without the lock, for a client that prefers availability) from a clear answer.
   */
  | { type: 'GAVE_UP'; failure: FailedTry }
  /** The read came back; `act` is false when the resource's state says there is nothing to do. */
  | { type: 'READ_DONE'; act: boolean }
  /** The work took its time (a timer on the process's clock). */
  | { type: 'WORKED' }
  /** The resource answered the write of the work's result. */
  | { type: 'WRITE_DONE' }
  | { type: 'RELEASED' }
  | { type: 'RENEWED' }
  /** `definite`: Redis said the key is gone; otherwise no answer, with `leaseLeftMs` of local lease left. */
  | { type: 'RENEW_FAILED'; definite: boolean; leaseLeftMs: number }
  /** Redlock's validity ran out while holding (its timer fired, or it was over when the work was ready to write). */
  | { type: 'LAPSED' };

/** The effects a lock client's machine asks for; bound per actor with `bindEffects`. */
export interface LockClientEffects {
  startAcquire(): void;
  startReenter(): void;
  startRead(): void;
  /** Do the job's work: WORKED after workMs on the process clock (never, for a wedged worker). */
  startWork(): void;
  /** Leaving `working` (done, or the lease was lost): the work's timer must not fire. */
  stopWork(): void;
  /** Write the work's result to the resource: WRITE_DONE once it has answered. */
  startWrite(): void;
  startRelease(): void;
  startRenew(): void;
  noteFailed(): void;
  noteLost(): void;
  /** The lock's validity ran out: stop believing it is held (the release that follows unlocks every master). */
  noteLapsed(): void;
  noteProceeding(): void;
}

/**
 * Each running actor's effects. The machine is built once for every client and every run
 * (building or `provide()`-ing a machine costs about a millisecond, more than a whole run of
 * the paused barista), so its actions look their effects up by the actor they run in.
 */
const effectsOf = new WeakMap<AnyActorRef, LockClientEffects>();

/** Binds `effects` to `actor`; call after createActor and before start(). */
export function bindEffects(actor: AnyActorRef, effects: LockClientEffects): void {
  effectsOf.set(actor, effects);
}

/** Lets go of `actor`'s effects (a released run's machine does nothing more). */
export function unbindEffects(actor: AnyActorRef): void {
  effectsOf.delete(actor);
}

const effect =
  (name: keyof LockClientEffects) =>
  ({ self }: { self: AnyActorRef }) =>
    effectsOf.get(self)?.[name]();

/**
 * A lock client: wait for the start time, take the lock (retrying by policy), enter again if
 * the job nests, read, work, write the result to the resource and release, while a watchdog
 * renews the lease. Effects are named here and bound per actor by LockClient (`bindEffects`).
 *
 * Only decisions come through here. Network traffic, Redis commands and the start time are
 * plain code on the process's clock, which tells the machine when they are over. So are the
 * pauses between tries: a contended client tries thousands of times, and a transition costs
 * XState about ten microseconds, so `acquiring` (and `reentering`) cover every try and the
 * pauses between them; the lane shows those pauses as `retrying` (see LockClientLaneState).
 * The watchdog's timers are the machine's own `after` delays, which the actor's clock also
 * puts on the kernel, so they are virtual and freeze during a pause too.
 *
 * While the lock is held, `holding` runs the job's steps beside the watchdog. A client without
 * a watchdog has the same shape: its renewal delay is infinite, so its watchdog sleeps forever
 * (the clock never schedules an infinite delay).
 */
export const lockClientMachine = setup({
  types: {
    context: {} as LockClientContext,
    events: {} as LockClientEvent,
    input: {} as LockClientInput,
  },
  actions: {
    startAcquire: effect('startAcquire'),
    startReenter: effect('startReenter'),
    startRead: effect('startRead'),
    startWork: effect('startWork'),
    stopWork: effect('stopWork'),
    startWrite: effect('startWrite'),
    startRelease: effect('startRelease'),
    startRenew: effect('startRenew'),
    noteFailed: effect('noteFailed'),
    noteLost: effect('noteLost'),
    noteLapsed: effect('noteLapsed'),
    noteProceeding: effect('noteProceeding'),
    countReentry: assign({ reentered: ({ context }) => context.reentered + 1 }),
    nextJob: assign({ jobsDone: ({ context }) => context.jobsDone + 1, reentered: 0 }),
  },
  delays: {
    renewDelay: ({ context }) => context.renewEveryMs ?? Infinity,
    renewRetryDelay: ({ context }) => context.renewRetryMs,
  },
  guards: {
    needsReenter: ({ context }) => context.reentered < context.reenter,
    // Checked as the nested ACQUIRED arrives, before countReentry has counted it.
    needsAnotherReenter: ({ context }) => context.reentered + 1 < context.reenter,
    readsFirst: ({ context }) => context.readsFirst,
    // Carrying on without the lock is a bet that silence means nobody holds it; a clear
    // "taken" (or an error) from Redis is never a reason to go ahead.
    proceeds: ({ context, event }) =>
      context.onUnavailable === 'proceed' && event.type === 'GAVE_UP' && event.failure === 'timeout',
    acts: ({ event }) => event.type === 'READ_DONE' && event.act,
    moreJobs: ({ context }) => context.jobsDone + 1 < context.jobs,
    mayRetryRenew: ({ context, event }) =>
      event.type === 'RENEW_FAILED' && !event.definite && context.onRenewFail === 'retry' && event.leaseLeftMs > 0,
  },
}).createMachine({
  id: 'lockClient',
  context: ({ input }) => ({ ...input, jobsDone: 0, reentered: 0 }),
  initial: 'idle',
  states: {
    // Idle until LockClient's start timer says go: with no timer of its own, this state is
    // the same for every run, so LockClient can restore it from a cached snapshot.
    idle: { on: { START: 'acquiring' } },
    acquiring: {
      entry: 'startAcquire',
      on: {
        // Straight to the job's first step: one transition per acquisition.
        ACQUIRED: [
          { guard: 'needsReenter', target: '#lockClient.holding.job.reentering' },
          { guard: 'readsFirst', target: '#lockClient.holding.job.reading' },
          { target: '#lockClient.holding.job.working' },
        ],
        GAVE_UP: [
          // Working on without the lock: the same job, with nothing held.
          {
            guard: and(['proceeds', 'needsReenter']),
            target: '#lockClient.holding.job.reentering',
            actions: ['noteFailed', 'noteProceeding'],
          },
          {
            guard: and(['proceeds', 'readsFirst']),
            target: '#lockClient.holding.job.reading',
            actions: ['noteFailed', 'noteProceeding'],
          },
          { guard: 'proceeds', target: '#lockClient.holding.job.working', actions: ['noteFailed', 'noteProceeding'] },
          { target: 'failed', actions: 'noteFailed' },
        ],
      },
    },
    holding: {
      type: 'parallel',
      // A client that keeps to Redlock's validity stops using the lock the moment it is over,
      // whatever step it is at, and unlocks everywhere (see RedlockOptions.validity).
      on: { LAPSED: { target: 'lapsing', actions: 'noteLapsed' } },
      states: {
        // The watchdog region comes first so its timer is scheduled before the job's.
        watchdog: {
          initial: 'sleeping',
          states: {
            sleeping: { after: { renewDelay: 'renewing' } },
            renewing: {
              initial: 'asking',
              states: {
                asking: {
                  entry: 'startRenew',
                  on: {
                    RENEWED: '#lockClient.holding.watchdog.sleeping',
                    RENEW_FAILED: [{ guard: 'mayRetryRenew', target: 'backingOff' }, { target: '#lockClient.lost' }],
                  },
                },
                backingOff: { after: { renewRetryDelay: 'asking' } },
              },
            },
          },
        },
        job: {
          initial: 'working',
          states: {
            reentering: {
              entry: 'startReenter',
              on: {
                ACQUIRED: [
                  { guard: 'needsAnotherReenter', target: 'reentering', reenter: true, actions: 'countReentry' },
                  { guard: 'readsFirst', target: 'reading', actions: 'countReentry' },
                  { target: 'working', actions: 'countReentry' },
                ],
                GAVE_UP: { target: '#lockClient.releasing' },
              },
            },
            reading: {
              entry: 'startRead',
              on: { READ_DONE: [{ guard: 'acts', target: 'working' }, { target: '#lockClient.releasing' }] },
            },
            working: { entry: 'startWork', exit: 'stopWork', on: { WORKED: 'writing' } },
            writing: { entry: 'startWrite', on: { WRITE_DONE: '#lockClient.releasing' } },
          },
        },
      },
    },
    releasing: {
      entry: 'startRelease',
      on: {
        RELEASED: [{ guard: 'moreJobs', target: 'acquiring', actions: 'nextJob' }, { target: 'done' }],
      },
    },
    // No longer believed held: unlock every master, then stop, as a lost lease does.
    lapsing: { entry: 'startRelease', on: { RELEASED: 'lost' } },
    lost: { entry: 'noteLost', type: 'final' },
    failed: { type: 'final' },
    done: { type: 'final' },
  },
});

/**
 * Every state a lock client's lane can show, in the order a job goes through them: the
 * machine's states (its top-level states, the job's steps and the watchdog's `renewing`) and
 * two conditions outside it, each with one meaning.
 * - `retrying`: inside `acquiring` or `reentering`, waiting out the retry policy's pause before
 *   the next try (plain code: see the machine's comment for why it is not a state).
 * - `crashed`: the process is down and its machine is gone; a restart starts a new one at `idle`.
 */
export const LOCK_CLIENT_LANE_STATES = [
  'idle',
  'acquiring',
  'retrying',
  'reentering',
  'reading',
  'working',
  'writing',
  'renewing',
  'releasing',
  'done',
  'failed',
  'lost',
  'crashed',
] as const;

export type LockClientLaneState = (typeof LOCK_CLIENT_LANE_STATES)[number];

/** The lane states that are states of the machine. */
export type LockClientMachineState = Exclude<LockClientLaneState, 'retrying' | 'crashed'>;

/**
 * The machine state a lane shows: 'acquiring', 'working', 'renewing'... While holding, a
 * renewal in progress wins over the job's step, because that is what the client is doing.
 */
export function machineState(snapshot: SnapshotFrom<typeof lockClientMachine>): LockClientMachineState {
  const value = snapshot.value;
  // Unlocking after the validity ran out is a release, as the lane shows it.
  if (value === 'lapsing') return 'releasing';
  if (typeof value === 'string') return value as LockClientMachineState;
  const { watchdog, job } = (value as { holding: { watchdog: string | object; job: string } }).holding;
  return watchdog === 'sleeping' ? (job as LockClientMachineState) : 'renewing';
}
