import { createActor, type Actor } from 'xstate';
import { describeStep, type ClientStep } from './clientSteps';
import { stepClientMachine, type StepClientInput } from './stepClientMachine';

// What step clients share across clients and runs: the explorer makes thousands of runs of one
// scenario, and each run creates every client anew from the same step lists.

type StepClientSnapshot = ReturnType<Actor<typeof stepClientMachine>['getPersistedSnapshot']>;

/** What every client following one step list needs, whatever the run. */
export interface StepList {
  /** What the machine decides with. */
  input: StepClientInput;
  /**
   * The machine's starting snapshot: working it out (entering the initial state, building the
   * context) was a third of what creating an actor allocated.
   */
  snapshot: StepClientSnapshot;
  /** Each step's `step.start` data, one frozen object recorded every time the step starts (a busy step starts again and again). */
  starts: readonly Readonly<{ index: number; detail: string }>[];
}

/** Keyed by the scenario's own list, so a list edited away in the workbench is forgotten with it. */
const stepLists = new WeakMap<readonly ClientStep[], StepList>();

export function stepListOf(steps: readonly ClientStep[]): StepList {
  let list = stepLists.get(steps);
  if (list === undefined) {
    const input: StepClientInput = { waits: steps.map((s) => (s.do === 'wait' ? s.ms : null)) };
    list = {
      input,
      snapshot: createActor(stepClientMachine, { input }).getPersistedSnapshot(),
      starts: steps.map((step, index) => Object.freeze({ index, detail: describeStep(step) })),
    };
    stepLists.set(steps, list);
  }
  return list;
}
