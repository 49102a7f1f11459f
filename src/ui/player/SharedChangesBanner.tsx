import { useState } from 'react';
import { describeAction } from '../../scenario/text/describeAction';
import { describeStoryChanges } from '../../scenario/running/storyEdits';
import { formatMs } from '../../sim/time';
import type { PlayerStore } from './playerStore';
import type { RunConfig } from './runModel';

/** What a shared run changed, in a phrase each: the script's faults moved, stretched or removed, then the actions added. */
export function sharedChanges(store: PlayerStore, config: RunConfig): string[] {
  const { scenario } = store.getState();
  return [
    ...describeStoryChanges(scenario, config.edits ?? []),
    ...config.actions.map((a) => `${describeAction(a)} at ${formatMs(a.at)}`),
  ];
}

/**
 * Said over a player opened from someone's share link when that run is not the lesson's own:
 * what they changed, and the way back to the lesson's run.
 */
export function SharedChangesBanner({ store, config }: { store: PlayerStore; config: RunConfig }) {
  const [open, setOpen] = useState(true);
  // Said as the link had it: the learner's own changes afterwards are theirs, not someone's.
  const [changes] = useState(() => sharedChanges(store, config));
  if (!open || changes.length === 0) return null;
  return (
    <div className="player-notice shared-changes" role="status">
      <p>You are looking at a run someone changed: {changes.join(', ')}.</p>
      <button
        type="button"
        onClick={() => {
          store.getState().clearActions();
          setOpen(false);
        }}
      >
        Back to the lesson’s run
      </button>{' '}
      <button type="button" onClick={() => setOpen(false)}>
        Dismiss
      </button>
    </div>
  );
}
