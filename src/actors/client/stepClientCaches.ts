import { describeStep, type ClientStep } from './clientSteps';
import type { StepClientInput } from './stepClientMachine';

// What step clients share across clients and runs: the explorer makes thousands of runs of one
// scenario, and each run creates every client anew from the same step lists.

/** What every client following one step list needs, whatever the run. */
export interface StepList {
  /** What the machine decides with. */
  input: StepClientInput;
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
      starts: steps.map((step, index) => Object.freeze({ index, detail: describeStep(step) })),
    };
    stepLists.set(steps, list);
  }
  return list;
}
