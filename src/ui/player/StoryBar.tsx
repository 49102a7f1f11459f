import { useContext } from 'react';
import { useStore } from 'zustand';
import { CompareSlot } from './compareSlot';
import type { PlayerStore } from './playerStore';
import { isChanged } from './storyMarks';

/**
 * Undo, redo and "Back to the lesson's run" for every change of the story (a fault moved,
 * stretched or removed, an action taken), and a live region that says what each change did.
 * The buttons are never `disabled`: one that turns unavailable as it is pressed would drop the
 * keyboard focus out of the player, where Ctrl+Z no longer reaches it (each does nothing then).
 */
export function StoryBar({
  store,
  comparing,
  onCompare,
}: {
  store: PlayerStore;
  comparing: boolean;
  onCompare: (on: boolean) => void;
}) {
  const canUndo = useStore(store, (s) => s.undoStack.length > 0);
  const canRedo = useStore(store, (s) => s.redoStack.length > 0);
  const changed = useStore(store, (s) => isChanged(s.requested ?? s.config));
  const note = useStore(store, (s) => s.storyNote);
  const canCompare = useContext(CompareSlot) !== null;
  const { undo, redo, clearActions } = store.getState();
  return (
    <div className="story-bar" role="group" aria-label="Your changes to the run">
      <button type="button" onClick={undo} aria-disabled={!canUndo} aria-keyshortcuts="Control+Z">
        Undo
      </button>
      <button type="button" onClick={redo} aria-disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">
        Redo
      </button>
      <button type="button" onClick={clearActions} aria-disabled={!changed}>
        Back to the lesson’s run
      </button>
      {canCompare && (
        <button
          type="button"
          onClick={() => changed && onCompare(!comparing)}
          aria-pressed={comparing && changed}
          aria-disabled={!changed}
        >
          Compare with the lesson’s run
        </button>
      )}
      <p className="story-note" role="status" data-testid="story-note">
        {note}
      </p>
    </div>
  );
}
