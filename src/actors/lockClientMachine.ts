import { and, assign, setup, type AnyActorRef, type SnapshotFrom } from 'xstate';

/**
 * What a lock client knows and intends. It is the client's *belief*; Redis may see things
 * differently. Durations are in the client's local clock.
 */
export interface LockClientContext {
  startAtMs: number;
  /** Work time while holding the lock; null means it never finishes (a wedged worker). */
  workMs: number | null;
  /** Watchdog period, or null without a watchdog. */
  renewEveryMs: number | null;
  /** On an unanswered renewal: stop at once, or retry until the local lease deadline passes. */
  onRenewFail: 'stop' | 'retry';
  renewRetryMs: number;
  /** Take the (same) lock this many more times while holding it, like a nested call would. */
  reenter: number;
  /** Read the resource before working (inventory, payment, dispatch). */
  readsFirst: boolean;
  /** How many times to take the lock and do the job. */
  jobs: number;
  /** When the lock cannot be had: refuse to work (consistency) or work without it (availability). */
  onUnavailable: 'refuse' | 'proceed';
  // What happened so far.
  jobsDone: number;
  reentered: number;
}

export type LockClientInput = Omit<LockClientContext, 'jobsDone' | 'reentered'>;

export type LockClientEvent =
  /** The client's start time came (sent by LockClient on the process's clock). */
  | { type: 'START' }
  /** The lock is held (its fencing token, if any, is LockClient's to keep and send). */
  | { type: 'ACQUIRED' }
  /**
   * The retry policy gave up (retries themselves are carried out by LockClient, not decided
   * here). `unreachable`: the last try got no answer at all, rather than a clear "taken".
   */
  | { type: 'GAVE_UP'; unreachable: boolean }
  /** The read came back; `act` is false when the resource's state says there is nothing to do. */
  | { type: 'READ_DONE'; act: boolean }
  /** The work took its time and its result was written to the resource (LockClient's doing). */
  | { type: 'WRITE_DONE' }
  | { type: 'RELEASED' }
  | { type: 'RENEWED' }
  /** `definite`: Redis said the key is gone; otherwise no answer, with `leaseLeftMs` of local lease left. */
  | { type: 'RENEW_FAILED'; definite: boolean; leaseLeftMs: number };

/** The effects a lock client's machine asks for; bound per actor with `bindEffects`. */
export interface LockClientEffects {
  startAcquire(): void;
  startReenter(): void;
  startRead(): void;
  /**
   * Do the job's work (a timer on the process clock; never done, for a wedged worker), then
   * write its result to the resource: WRITE_DONE once the resource has answered.
   */
  startWork(): void;
  /** Leaving `working` (done, or the lease was lost): the work's timer must not fire. */
  stopWork(): void;
  startRelease(): void;
  startRenew(): void;
  noteFailed(): void;
  noteLost(): void;
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

const effect = (name: keyof LockClientEffects) => ({ self }: { self: AnyActorRef }) => effectsOf.get(self)?.[name]();

const machineSetup = setup({
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
    startRelease: effect('startRelease'),
    startRenew: effect('startRenew'),
    noteFailed: effect('noteFailed'),
    noteLost: effect('noteLost'),
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
    // "taken" from Redis is never a reason to go ahead.
    proceeds: ({ context, event }) => context.onUnavailable === 'proceed' && event.type === 'GAVE_UP' && event.unreachable,
    acts: ({ event }) => event.type === 'READ_DONE' && event.act,
    moreJobs: ({ context }) => context.jobsDone + 1 < context.jobs,
    mayRetryRenew: ({ context, event }) =>
      event.type === 'RENEW_FAILED' && !event.definite && context.onRenewFail === 'retry' && event.leaseLeftMs > 0,
  },
});

/**
 * A lock client: wait for the start time, take the lock (retrying by policy), enter again if
 * the job nests, read, work, write to the resource and release, while a watchdog renews the
 * lease. Effects are named here and bound per actor by LockClient (`bindEffects`).
 *
 * Only decisions come through here. Network traffic, Redis commands and fixed sequences (the
 * start time; the pause between retries, shown as 'waiting'; the work and then the write of its
 * result, shown as 'writing') are plain code on the process's clock, which tells the machine
 * when they are over; the watchdog's timers are the machine's own `after` delays, which the
 * actor's clock also puts on the kernel, so they are virtual and freeze during a pause too.
 * Every transition costs XState several microseconds, so the machine has no eventless hops and
 * as few steps per job as its decisions need: three (acquired, written, released).
 *
 * Built in two shapes from one definition, once each: with a watchdog, `holding` is a parallel
 * state (the job's steps beside the watchdog's); without one, the job's steps are top-level
 * states and there is no `holding`. Both show the same states on the timeline; the flat one
 * simply costs XState less per transition (10–15% less, measured), and most clients have no
 * watchdog.
 */
function buildMachine(watchdog: boolean) {
  const job = watchdog ? '#lockClient.holding.job.' : '#lockClient.';
  /** Where a job starts once the lock is in hand: a nested acquire, a read, or the work. */
  const startJob = (reenter: 'needsReenter' | 'needsAnotherReenter', actions: readonly 'countReentry'[]) =>
    [
      { guard: reenter, target: `${job}reentering`, actions },
      { guard: 'readsFirst', target: `${job}reading`, actions },
      { target: `${job}working`, actions },
    ] as const;
  const jobStates = {
    reentering: {
      entry: 'startReenter',
      on: {
        ACQUIRED: startJob('needsAnotherReenter', ['countReentry']),
        GAVE_UP: { target: '#lockClient.releasing' },
      },
    },
    reading: {
      entry: 'startRead',
      on: { READ_DONE: [{ guard: 'acts', target: 'working' }, { target: '#lockClient.releasing' }] },
    },
    working: { entry: 'startWork', exit: 'stopWork', on: { WRITE_DONE: '#lockClient.releasing' } },
  } as const;
  const watchdogRegion = {
    initial: 'sleeping',
    states: {
      sleeping: { after: { renewDelay: 'renewing' } },
      renewing: {
        entry: 'startRenew',
        on: {
          RENEWED: 'sleeping',
          RENEW_FAILED: [{ guard: 'mayRetryRenew', target: 'renewWaiting' }, { target: '#lockClient.lost' }],
        },
      },
      renewWaiting: { after: { renewRetryDelay: 'renewing' } },
    },
  } as const;
  // The watchdog region comes first so its timer is scheduled before the job's.
  const holding = watchdog
    ? { holding: { type: 'parallel' as const, states: { watchdog: watchdogRegion, job: { initial: 'working' as const, states: jobStates } } } }
    : jobStates;
  return machineSetup.createMachine({
    id: 'lockClient',
    context: ({ input }) => ({ ...input, jobsDone: 0, reentered: 0 }),
    initial: 'idle',
    states: {
      // Idle until LockClient's start timer says go: with no timer of its own, this state is
      // the same for every run, so LockClient can restore it from a cached snapshot.
      idle: { on: { START: 'acquiring' } },
      // Acquiring covers every retry: waiting between tries is plain code (LockClient shows it as
      // 'waiting'), so a crowd of contending clients costs no machine transitions per attempt.
      acquiring: {
        entry: 'startAcquire',
        on: {
          // Straight to the job's first step: one transition per acquisition.
          ACQUIRED: startJob('needsReenter', []),
          GAVE_UP: [
            // Working on without the lock: the same job, with nothing held.
            { guard: and(['proceeds', 'needsReenter']), target: `${job}reentering`, actions: ['noteFailed', 'noteProceeding'] },
            { guard: and(['proceeds', 'readsFirst']), target: `${job}reading`, actions: ['noteFailed', 'noteProceeding'] },
            { guard: 'proceeds', target: `${job}working`, actions: ['noteFailed', 'noteProceeding'] },
            { target: 'failed', actions: 'noteFailed' },
          ],
        },
      },
      ...holding,
      releasing: {
        entry: 'startRelease',
        on: {
          RELEASED: [
            { guard: 'moreJobs', target: 'acquiring', actions: 'nextJob' },
            { target: 'done' },
          ],
        },
      },
      lost: { entry: 'noteLost', type: 'final' },
      failed: { type: 'final' },
      done: { type: 'final' },
    },
  });
}

/** The lock client machine for a client with a watchdog. */
export const lockClientMachine = buildMachine(true);
/** The same machine for a client without one (no `holding`: its job's steps are top-level states). */
export const plainLockClientMachine = buildMachine(false);

/**
 * The state name a timeline lane shows: 'acquiring', 'working', 'renewing'... While holding,
 * a renewal in progress wins over the job's step, because that is what the client is doing.
 */
export function stateLabel(snapshot: SnapshotFrom<typeof lockClientMachine> | SnapshotFrom<typeof plainLockClientMachine>): string {
  const value = snapshot.value;
  if (typeof value === 'string') return value;
  const holding = (value as { holding?: { job: string; watchdog: string } }).holding;
  if (holding === undefined) return String(Object.keys(value)[0]);
  return holding.watchdog === 'renewing' || holding.watchdog === 'renewWaiting' ? 'renewing' : holding.job;
}
