import { and, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { machineOutline } from './machineOutline';
import { transitionText } from './StatechartView';

// A small machine with every feature the outline reads: guards (plain and combined), a delay,
// a parallel state with an initial child, and a final state.
const machine = setup({
  guards: { quorum: () => true, fresh: () => true },
  delays: { electionTimeout: 10 },
}).createMachine({
  id: 'toy',
  initial: 'watching',
  states: {
    watching: { on: { DOWN: [{ guard: and(['quorum', 'fresh']), target: 'failing' }, { target: 'watching' }] } },
    failing: {
      type: 'parallel',
      states: {
        vote: { initial: 'asking', states: { asking: { after: { electionTimeout: 'asking' } } } },
        promote: { initial: 'waiting', states: { waiting: { on: { PROMOTED: '#toy.done' } } } },
      },
    },
    done: { type: 'final' },
  },
});

describe('a machine drawn from its own definition', () => {
  const outline = machineOutline(machine);

  it('keeps the state tree, with types and initial children', () => {
    expect(outline.initial).toBe('watching');
    expect(outline.children.map((c) => [c.key, c.type])).toEqual([
      ['watching', 'atomic'],
      ['failing', 'parallel'],
      ['done', 'final'],
    ]);
    const failing = outline.children[1]!;
    expect(failing.children.map((c) => [c.key, c.initial])).toEqual([
      ['vote', 'asking'],
      ['promote', 'waiting'],
    ]);
  });

  it('lists each transition with its event, guard and target, in order', () => {
    expect(outline.children[0]!.transitions.map(transitionText)).toEqual([
      'DOWN [quorum and fresh] → failing',
      'DOWN → watching',
    ]);
    expect(outline.children[1]!.children[1]!.children[0]!.transitions.map(transitionText)).toEqual(['PROMOTED → done']);
  });

  it('names a delayed transition by its delay', () => {
    expect(outline.children[1]!.children[0]!.children[0]!.transitions.map(transitionText)).toEqual([
      'after electionTimeout → asking',
    ]);
  });
});
