import { describe, expect, it } from 'vitest';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';
import { stepClientMachine, type StepClientEvent, type StepClientInput } from './stepClientMachine';

/** Lists that take every way from one step to the next: none, only waits, only commands, and both. */
const inputs: StepClientInput[] = [
  { waits: [] },
  { waits: [5, 5] },
  { waits: [null, null] },
  { waits: [null, 5, null] },
];
const events: StepClientEvent[] = [{ type: 'START' }, { type: 'NEXT' }, { type: 'STOP' }];

/** The step client's specification, one line per transition taken on an event or a delay. */
const SPEC = [
  'idle --START--> done',
  'idle --START--> running',
  'idle --START--> waiting',
  'running --NEXT--> done',
  'running --NEXT--> running',
  'running --NEXT--> waiting',
  'running --STOP--> failed',
  'waiting --after waitDelay--> done',
  'waiting --after waitDelay--> running',
  'waiting --after waitDelay--> waiting',
];

describe('the step client machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(stepClientMachine, inputs, events)).toEqual([...SPEC].sort());
  });

  it('runs, waits and runs again to the end of its list, or stops', () => {
    const paths = shortestPaths(stepClientMachine, [{ waits: [null, 5, null] }], events);
    expect(paths.get('"done"')).toEqual(['xstate.init', 'START', 'NEXT', 'after waitDelay', 'NEXT']);
    expect(paths.get('"failed"')).toEqual(['xstate.init', 'START', 'STOP']);
    // Every state the machine rests in is one its lane shows.
    expect([...paths.keys()].sort()).toEqual(['"done"', '"failed"', '"idle"', '"running"', '"waiting"']);
  });
});
