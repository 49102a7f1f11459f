import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { QuizSpec } from '../../lessons/blocks/quiz';
import { EMPTY_ANSWER } from '../progress/progressStore';
import { useLessonProgress } from '../progress/progressScope';
import { Hints } from './Hints';
import { InlineText } from './InlineText';
import { commitAnswer, gradeQuiz, hasAnswer, type Feedback } from './quizGrading';
import './quiz.css';

/**
 * A quiz that hides its answer until the learner commits: they check an answer, or say they
 * have thought about it. Then the explanation of what they chose comes first, followed by the
 * right answer and the other options. Answers are saved with the learner's progress.
 */
export function QuizBlock({ quiz, storageKey }: { quiz: QuizSpec; storageKey: string }) {
  const answer = useLessonProgress((s) => s.quizzes[storageKey]) ?? EMPTY_ANSWER;
  const updateQuiz = useLessonProgress((s) => s.updateQuiz);
  const resetQuiz = useLessonProgress((s) => s.resetQuiz);
  const [nudge, setNudge] = useState(false);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const justCommitted = useRef(false);
  const name = useId();

  useEffect(() => {
    if (answer.committed && justCommitted.current) resultRef.current?.focus();
    justCommitted.current = false;
  }, [answer.committed]);

  const commit = (withAnswer: boolean) => {
    justCommitted.current = true;
    updateQuiz(storageKey, commitAnswer(quiz, answer, withAnswer));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!hasAnswer(quiz, answer)) return setNudge(true);
    setNudge(false);
    commit(true);
  };
  const select = (id: string, checked: boolean) => {
    setNudge(false);
    const selected =
      quiz.kind === 'single' ? [id] : checked ? [...answer.selected, id] : answer.selected.filter((s) => s !== id);
    updateQuiz(storageKey, { selected });
  };
  const grade = answer.committed ? gradeQuiz(quiz, answer) : null;

  return (
    <section className="block quiz" aria-label="Quiz">
      <p className="block-kicker" aria-hidden="true">
        Quiz
      </p>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={answer.committed}>
          <legend className="quiz-question">
            <InlineText text={quiz.question} />
          </legend>
          <p className="quiz-instructions">
            {quiz.kind === 'single'
              ? 'Choose one answer.'
              : quiz.kind === 'multiple'
                ? 'Choose every answer that applies.'
                : 'Decide whether each statement is true or false.'}
          </p>
          {quiz.kind === 'true-false' ? (
            <div className="statements">
              {quiz.statements.map((s) => (
                <fieldset key={s.id} className="statement">
                  <legend>
                    <InlineText text={s.text} />
                  </legend>
                  <div className="statement-choices">
                    {(['true', 'false'] as const).map((value) => (
                      <label key={value} className="choice choice-compact">
                        <input
                          type="radio"
                          name={`${name}-${s.id}`}
                          value={value}
                          checked={answer.picks[s.id] === value}
                          onChange={() => updateQuiz(storageKey, { picks: { ...answer.picks, [s.id]: value } })}
                        />
                        <span>{value === 'true' ? 'True' : 'False'}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
          ) : (
            <div className="choices">
              {quiz.options.map((o) => {
                const chosen = answer.selected.includes(o.id);
                const mark = grade ? (o.correct ? 'is-correct' : chosen ? 'is-wrong' : '') : '';
                return (
                  <label key={o.id} className={`choice ${mark}`}>
                    <input
                      type={quiz.kind === 'single' ? 'radio' : 'checkbox'}
                      name={name}
                      value={o.id}
                      checked={chosen}
                      onChange={(e) => select(o.id, e.target.checked)}
                    />
                    <span className="choice-text">
                      {grade && o.correct && <span className="badge badge-correct">Correct answer</span>}
                      {grade && chosen && !o.correct && <span className="badge badge-wrong">Your answer</span>}
                      <InlineText text={o.text} />
                    </span>
                  </label>
                );
              })}
            </div>
          )}
        </fieldset>

        <Hints
          hints={quiz.hints}
          shown={answer.hintsShown}
          disabled={answer.committed}
          onShowNext={() => updateQuiz(storageKey, { hintsShown: answer.hintsShown + 1 })}
        />

        {!answer.committed && (
          <div className="quiz-actions">
            <button type="submit" className="button button-primary">
              Check my answer
            </button>
            <button type="button" className="button button-secondary" onClick={() => commit(false)}>
              I've thought about it: show the answer
            </button>
            {nudge && (
              <p className="quiz-nudge" role="alert">
                Pick an answer first, or choose "I've thought about it".
              </p>
            )}
          </div>
        )}
      </form>

      {grade && (
        <div className="quiz-result">
          <h3
            ref={resultRef}
            tabIndex={-1}
            className={`result-title ${grade.correct === true ? 'is-correct' : grade.correct === false ? 'is-wrong' : ''}`}
          >
            {grade.correct === true ? 'Correct.' : grade.correct === false ? 'Not quite.' : 'Here is the answer.'}
          </h3>
          {grade.correct === false && !answer.earned && (
            <p className="quiz-retry-note">
              Read why below, then try again: a question counts toward this lesson once you get it right.
            </p>
          )}
          <ul className="feedback-list" aria-label="Feedback">
            {grade.feedback.map((f) => (
              <FeedbackItem key={f.id} feedback={f} trueFalse={quiz.kind === 'true-false'} />
            ))}
          </ul>
          <button type="button" className="button button-quiet" onClick={() => resetQuiz(storageKey)}>
            Try again
          </button>
        </div>
      )}
    </section>
  );
}

function FeedbackItem({ feedback: f, trueFalse }: { feedback: Feedback; trueFalse: boolean }) {
  if (trueFalse) {
    const verdict =
      f.said === undefined
        ? `It is ${f.answer}.`
        : f.correct
          ? `You said ${f.said}: right.`
          : `You said ${f.said}; it is ${f.answer}.`;
    return (
      <li className={`feedback ${f.said === undefined ? '' : f.correct ? 'is-correct' : 'is-wrong'}`}>
        <p className="feedback-head">
          <InlineText text={f.text} />
        </p>
        <p className="feedback-verdict">{verdict}</p>
        <p>
          <InlineText text={f.explanation} />
        </p>
      </li>
    );
  }
  const label = f.chosen
    ? f.correct
      ? 'Your answer is right'
      : 'Your answer'
    : f.correct
      ? 'The right answer'
      : 'Another option';
  return (
    <li
      className={`feedback ${f.chosen ? (f.correct ? 'is-correct' : 'is-wrong') : f.correct ? 'is-correct-unchosen' : ''}`}
    >
      <p className="feedback-head">
        <span className="feedback-label">{label}:</span> <InlineText text={f.text} />
      </p>
      <p>
        <InlineText text={f.explanation} />
      </p>
    </li>
  );
}
