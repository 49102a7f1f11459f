import { createStore } from 'zustand/vanilla';
import { describe, expect, it, vi } from 'vitest';
import type { PlayerState, PlayerStore } from './playerStore';
import { watchedThrough, whenWatched } from './watched';

// Only the fields the rule reads; the rest of a player's state does not matter here.
type Seen = Pick<PlayerState, 'computing' | 'events' | 'cursor' | 'stoppedAtViolation'>;
const events = [{}, {}, {}, {}] as PlayerState['events'];
const state = (over: Partial<Seen>): Seen => ({
  computing: false,
  events,
  cursor: 0,
  stoppedAtViolation: false,
  ...over,
});

describe('a run the learner has seen through', () => {
  it('is one whose playhead reached the last event, or stopped at a broken invariant', () => {
    expect(watchedThrough(state({ cursor: 3 }) as PlayerState)).toBe(true);
    expect(watchedThrough(state({ cursor: 1, stoppedAtViolation: true }) as PlayerState)).toBe(true);
    expect(watchedThrough(state({ cursor: 2 }) as PlayerState)).toBe(false);
  });

  it('does not count while a new run is computing', () => {
    expect(watchedThrough(state({ cursor: 3, computing: true }) as PlayerState)).toBe(false);
  });

  it('is reported once, when it first happens', () => {
    const store = createStore<Seen>()(() => state({}));
    const onWatched = vi.fn();
    whenWatched(store as unknown as PlayerStore, onWatched);
    store.setState({ cursor: 2 });
    expect(onWatched).not.toHaveBeenCalled();
    store.setState({ cursor: 3 });
    store.setState({ cursor: 0 });
    store.setState({ cursor: 3 });
    expect(onWatched).toHaveBeenCalledTimes(1);
  });
});
