import { useId } from 'react';
import type { MatchSpec } from '../../lessons/blocks/match';
import { EMPTY_ANSWER } from '../progress/progressStore';
import { useLessonProgress } from '../progress/progressScope';
import { InlineText } from './InlineText';

/** Problems matched to tools with a select each; the explanations appear once the learner checks. */
export function MatchBlock({ spec, storageKey }: { spec: MatchSpec; storageKey: string }) {
  const answer = useLessonProgress((s) => s.quizzes[storageKey]) ?? EMPTY_ANSWER;
  const updateQuiz = useLessonProgress((s) => s.updateQuiz);
  const resetQuiz = useLessonProgress((s) => s.resetQuiz);
  const baseId = useId();
  const toolText = (id: string) => spec.tools.find((t) => t.id === id)?.text ?? id;
  const right = spec.problems.filter((p) => p.answer.includes(answer.picks[p.id] ?? '')).length;
  return (
    <section className="block match" aria-label="Match">
      <p className="block-kicker" aria-hidden="true">
        Match
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          updateQuiz(storageKey, { committed: true });
        }}
      >
        <fieldset disabled={answer.committed}>
          <legend className="quiz-question">
            <InlineText text={spec.question} />
          </legend>
          <ol className="match-rows">
            {spec.problems.map((p) => {
              const pick = answer.picks[p.id] ?? '';
              const ok = p.answer.includes(pick);
              return (
                <li key={p.id} className={`match-row ${answer.committed ? (ok ? 'is-correct' : 'is-wrong') : ''}`}>
                  <label htmlFor={`${baseId}-${p.id}`}>
                    <InlineText text={p.text} />
                  </label>
                  <select
                    id={`${baseId}-${p.id}`}
                    value={pick}
                    onChange={(e) => updateQuiz(storageKey, { picks: { ...answer.picks, [p.id]: e.target.value } })}
                  >
                    <option value="">Choose a tool…</option>
                    {spec.tools.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.text}
                      </option>
                    ))}
                  </select>
                  {answer.committed && (
                    <p className="feedback-verdict">
                      {ok ? 'Right.' : `Better: ${p.answer.map(toolText).join(' or ')}.`}{' '}
                      <InlineText text={p.explanation} />
                    </p>
                  )}
                </li>
              );
            })}
          </ol>
        </fieldset>
        {answer.committed ? (
          <div className="quiz-actions">
            <p className="result-title" role="status">
              {right} of {spec.problems.length} matched well.
            </p>
            <button type="button" className="button button-quiet" onClick={() => resetQuiz(storageKey)}>
              Try again
            </button>
          </div>
        ) : (
          <div className="quiz-actions">
            <button type="submit" className="button button-primary">
              Check my matches
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
