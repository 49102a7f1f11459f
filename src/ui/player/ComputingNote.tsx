import { useStore } from 'zustand';
import type { PlayerStore } from './playerStore';

/**
 * "Computing the new run…" while a change's run computes, the run still shown being the last
 * that finished. Its line is kept when empty (player.css), so the words never move the timeline
 * under the learner's pointer.
 */
export function ComputingNote({ store }: { store: PlayerStore }) {
  const computing = useStore(store, (s) => s.computing);
  return (
    <p className="player-computing" role="status">
      {computing && (
        <>
          Computing the new run…
          <span className="player-computing-more"> the one below is the last that finished.</span>
        </>
      )}
    </p>
  );
}
