import { useId, useState } from 'react';
import type { FillInSpec } from '../../lessons/blocks/fillIn';
import { useLessonProgress } from '../progress/progressScope';
import { downloadText } from './download';
import { fillInMarkdown } from './fillInMarkdown';
import { InlineText } from './InlineText';

/** Free-text fields saved in the browser and exportable as Markdown; model answers on request. */
export function FillInBlock({
  spec,
  storageKey,
  lessonTitle,
}: {
  spec: FillInSpec;
  storageKey: string;
  lessonTitle: string;
}) {
  const notes = useLessonProgress((s) => s.notes);
  const setNote = useLessonProgress((s) => s.setNote);
  const [modelsShown, setModelsShown] = useState(false);
  const baseId = useId();
  const answers = Object.fromEntries(spec.fields.map((f) => [f.id, notes[`${storageKey}/${f.id}`] ?? '']));
  const hasModels = spec.fields.some((f) => f.model);
  return (
    <section className="block fill-in" aria-label="Fill in">
      <p className="block-kicker" aria-hidden="true">
        Write it down
      </p>
      <h3 className="block-title">
        <InlineText text={spec.title} />
      </h3>
      {spec.fields.map((f) => (
        <div key={f.id} className="field">
          <label htmlFor={`${baseId}-${f.id}`}>
            <InlineText text={f.label} />
          </label>
          <textarea
            id={`${baseId}-${f.id}`}
            rows={f.rows}
            placeholder={f.placeholder}
            value={answers[f.id]}
            onChange={(e) => setNote(`${storageKey}/${f.id}`, e.target.value)}
          />
          {modelsShown && f.model && (
            <p className="model-answer">
              <span className="feedback-label">One good answer:</span> <InlineText text={f.model} />
            </p>
          )}
        </div>
      ))}
      <div className="block-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() =>
            downloadText(
              `${storageKey.replace(/\//g, '-')}.md`,
              fillInMarkdown(spec, lessonTitle, answers),
              'text/markdown',
            )
          }
        >
          Download as Markdown
        </button>
        {hasModels && !modelsShown && (
          <button type="button" className="button button-quiet" onClick={() => setModelsShown(true)}>
            Compare with a model answer
          </button>
        )}
      </div>
    </section>
  );
}
