import { useContext } from 'react';
import { useStore } from 'zustand';
import { CompareSlot } from './compareSlot';
import type { PlayerStore } from './playerStore';

/**
 * "Compare with the lesson's run": the learner's changed run beside the lesson's own (same seed
 * and fencing, without the changes), in the compare block, whose two sides share one playhead
 * and one zoom. It follows the learner's latest change: a new change shows a new pair.
 */
export function LessonRunCompare({ store }: { store: PlayerStore }) {
  const Compare = useContext(CompareSlot);
  const scenario = useStore(store, (s) => s.scenario);
  const config = useStore(store, (s) => s.requested ?? s.config);
  if (!Compare) return null;
  const { edits: _edits, ...kept } = config;
  return (
    <div className="lesson-run-compare">
      <Compare
        key={JSON.stringify(config)}
        title="Your run beside the lesson’s"
        left={{ label: 'The lesson’s run', scenario, run: { ...kept, actions: [] } }}
        right={{ label: 'Your run', scenario, run: config }}
      />
    </div>
  );
}
