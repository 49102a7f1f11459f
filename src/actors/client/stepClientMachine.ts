import { assign, setup, type AnyActorRef } from 'xstate';

/**
 * What a step-list client knows: where it is in its list. `waits[i]` is the length of step i
 * when it is a `wait` step and null otherwise, so the machine can tell waiting from running
 * without knowing what the other steps do.
 */
export interface StepClientContext {
  waits: readonly (number | null)[];
  /** The step being carried out (or waited on); -1 before the first. */
  index: number;
}

export type StepClientInput = Pick<StepClientContext, 'waits'>;

export type StepClientEvent =
  /** The client's start time has come (StepClient's timer on the process's clock). */
  | { type: 'START' }
  /** The current step finished: go on to the next. */
  | { type: 'NEXT' }
  /** Give up: the lock could not be had and the step says stop (or Tries gave up, or Redis answered an error). */
  | { type: 'STOP' };

/** The effects a step client's machine asks for; bound per actor with `bindStepEffects`. */
export interface StepClientEffects {
  /** Carry out step `index` (never a wait step, retrying it if need be) and answer NEXT or STOP. */
  runStep(index: number): void;
  /** A wait step began / ended (for the trace). */
  waitStarted(index: number): void;
  waitEnded(index: number): void;
}

const effectsOf = new WeakMap<AnyActorRef, StepClientEffects>();

/** Binds `effects` to `actor`; call after createActor and before start(). */
export function bindStepEffects(actor: AnyActorRef, effects: StepClientEffects): void {
  effectsOf.set(actor, effects);
}

/** Lets go of `actor`'s effects (a released run's machine does nothing more). */
export function unbindStepEffects(actor: AnyActorRef): void {
  effectsOf.delete(actor);
}

type Args = { self: AnyActorRef; context: StepClientContext };

/**
 * How every step ends (and how the list begins): on to the step after the current one, which
 * is the end of the list, a wait, or a step to run. Running or waiting again is entered anew.
 * One transition per step: a transient choice state between steps took XState a second
 * microstep each time, which was a fifth of all an explorer run allocated.
 */
const onToNextStep = [
  { guard: 'listDone', target: '#stepClient.done' },
  { guard: 'waitIsNext', target: '#stepClient.waiting', actions: 'advance', reenter: true },
  { target: '#stepClient.running', actions: 'advance', reenter: true },
] as const;

/**
 * A client following an explicit step list: idle until its start time, then `running` a step
 * (a command, a read, a write), `waiting` through a `wait` step, and `done` at the end of the
 * list (`failed` if it gave up). As with the lock client machine, time comes from the kernel
 * through the actor's clock and only decisions go through XState; the commands themselves,
 * and the pauses before another try of a busy step (shown as `retrying`, decided by Tries as
 * for a lock client), are plain code in StepClient.
 */
export const stepClientMachine = setup({
  types: {
    context: {} as StepClientContext,
    events: {} as StepClientEvent,
    input: {} as StepClientInput,
  },
  actions: {
    runStep: ({ self, context }: Args) => effectsOf.get(self)?.runStep(context.index),
    waitStarted: ({ self, context }: Args) => effectsOf.get(self)?.waitStarted(context.index),
    waitEnded: ({ self, context }: Args) => effectsOf.get(self)?.waitEnded(context.index),
    advance: assign({ index: ({ context }) => context.index + 1 }),
  },
  delays: {
    waitDelay: ({ context }) => context.waits[context.index] ?? 0,
  },
  guards: {
    listDone: ({ context }) => context.index + 1 >= context.waits.length,
    waitIsNext: ({ context }) => context.waits[context.index + 1] !== null,
  },
}).createMachine({
  id: 'stepClient',
  context: ({ input }) => ({ ...input, index: -1 }),
  initial: 'idle',
  states: {
    // Idle until StepClient's start timer (on the process's clock) says go.
    idle: { on: { START: onToNextStep } },
    running: {
      entry: 'runStep',
      on: {
        NEXT: onToNextStep,
        STOP: 'failed',
      },
    },
    waiting: {
      entry: 'waitStarted',
      // A wait is left only when its delay runs out: a crash stops the machine without exiting it.
      exit: 'waitEnded',
      after: { waitDelay: onToNextStep },
    },
    failed: { type: 'final' },
    done: { type: 'final' },
  },
});

/**
 * Every state a step client's lane can show: the machine's states, `retrying` (inside `running`,
 * waiting out the retry policy's pause before trying a busy step again) and `crashed` (the
 * process is down and its machine is gone), with the same meanings as for a lock client. `waiting` is only ever a `wait` step.
 */
export const STEP_CLIENT_LANE_STATES = ['idle', 'running', 'retrying', 'waiting', 'done', 'failed', 'crashed'] as const;

export type StepClientLaneState = (typeof STEP_CLIENT_LANE_STATES)[number];

/** The lane states that are states of the machine. */
export type StepClientMachineState = Exclude<StepClientLaneState, 'retrying' | 'crashed'>;
