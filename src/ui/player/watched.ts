import type { PlayerState, PlayerStore } from './playerStore';

/** The learner has seen the run through: its playhead reached the last event or stopped at a broken invariant. */
export function watchedThrough(state: PlayerState): boolean {
  if (state.computing || state.events.length < 2) return false;
  return state.stoppedAtViolation || state.cursor >= state.events.length - 1;
}

/**
 * Calls `onWatched` once, the first time the learner sees the run through (a lesson counts its
 * main scenario as run then). Returns the unsubscribe function for an effect's cleanup.
 */
export function whenWatched(store: PlayerStore, onWatched: () => void): () => void {
  const unsubscribe = store.subscribe((state, previous) => {
    if (!watchedThrough(state) || watchedThrough(previous)) return;
    unsubscribe();
    onWatched();
  });
  return unsubscribe;
}
