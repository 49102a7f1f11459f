import { describe, expect, it } from 'vitest';
import { shortestPaths, transitionsTaken } from './machinePaths';
import { stepClientMachine, type StepClientEvent, type StepClientInput } from './stepClientMachine';

/** A command, a wait, a command: every kind of step the machine tells apart. */
const inputs: StepClientInput[] = [{ waits: [null, 5, null] }];
const events: StepClientEvent[] = [{ type: 'START' }, { type: 'NEXT' }, { type: 'STOP' }];

/** The step client's specification, one line per transition taken on an event or a delay. */
const SPEC = [
  'idle --START--> next',
  'running --NEXT--> next',
  'running --STOP--> failed',
  'waiting --after waitDelay--> next',
];

describe('the step client machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(stepClientMachine, inputs, events)).toEqual([...SPEC].sort());
  });

  it('runs, waits and runs again to the end of its list, or stops', () => {
    const paths = shortestPaths(stepClientMachine, inputs, events);
    expect(paths.get('"done"')).toEqual(['xstate.init', 'START', 'NEXT', 'after waitDelay', 'NEXT']);
    expect(paths.get('"failed"')).toEqual(['xstate.init', 'START', 'STOP']);
    // `next` is a choice, never a state the client rests in.
    expect(paths.has('"next"')).toBe(false);
  });
});
