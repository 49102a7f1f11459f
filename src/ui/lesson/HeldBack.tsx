import type { ReactNode } from 'react';
import { create } from 'zustand';
import { useLessonProgress } from '../progress/progressScope';

/** Quizzes whose held-back part the learner chose to read without answering (this visit only). */
const useReadOn = create<{ quizzes: ReadonlySet<string>; readOn: (quizKey: string) => void }>((set) => ({
  quizzes: new Set(),
  readOn: (quizKey) => set((s) => ({ quizzes: new Set(s.quizzes).add(quizKey) })),
}));

/**
 * A part of a lesson an ```after block holds back until the learner has answered the quiz it
 * names (checked or shown, now or before a "Try again"): prose that tells what the quiz asked
 * the learner to predict, or a player that would show it. The first held part of a section says
 * why it waits; the rest stay hidden. The learner may read on without answering.
 */
export function HeldBack({ quizKey, first, children }: { quizKey: string; first: boolean; children: ReactNode }) {
  const answered = useLessonProgress((s) => {
    const answer = s.quizzes[quizKey];
    return !!(answer?.committed || answer?.earned || answer?.missed);
  });
  const readOn = useReadOn((s) => s.quizzes.has(quizKey));
  if (answered || readOn) return children;
  if (!first) return null;
  return (
    <div className="after-quiz">
      <p>The next part shows what happens in the run. Answer the quiz above first, then play it and read on.</p>
      <button type="button" className="button button-quiet" onClick={() => useReadOn.getState().readOn(quizKey)}>
        Read on without answering
      </button>
    </div>
  );
}
