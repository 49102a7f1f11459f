import { SHORTCUTS } from './playerKeys';

/** The keyboard shortcuts, listed when the learner presses `?` in the player. */
export function ShortcutList({ onClose }: { onClose: () => void }) {
  return (
    <div className="player-shortcuts" role="group" aria-label="Keyboard shortcuts">
      <strong>Keyboard shortcuts</strong> (anywhere in the player, except while typing)
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} style={{ display: 'contents' }}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
