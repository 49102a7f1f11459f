import { useState } from 'react';
import type { ProseNode } from '../../lessons/types';
import { useProgress } from '../progress/progressStore';
import { Prose } from './Prose';

/**
 * Prose an ```after block holds back until the learner has answered the quiz it names (checked
 * or shown, now or before a "Try again"): it tells what the quiz asked the learner to predict.
 * The learner may read on without answering.
 */
export function AfterQuizProse({ nodes, quizKey }: { nodes: ProseNode[]; quizKey: string }) {
  const answered = useProgress((s) => {
    const answer = s.quizzes[quizKey];
    return !!(answer?.committed || answer?.earned || answer?.missed);
  });
  const [readAnyway, setReadAnyway] = useState(false);
  if (answered || readAnyway) return <Prose nodes={nodes} />;
  return (
    <div className="after-quiz">
      <p>The next part tells what happens in the run. Answer the quiz above first, then play it and read on.</p>
      <button type="button" className="button button-quiet" onClick={() => setReadAnyway(true)}>
        Read on without answering
      </button>
    </div>
  );
}
