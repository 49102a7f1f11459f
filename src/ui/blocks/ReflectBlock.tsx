import { useId } from 'react';
import type { ReflectSpec } from '../../lessons/blocks/reflect';
import { useLessonProgress } from '../progress/progressScope';
import { InlineText } from './InlineText';

/** An open question with a notes box; the notes are saved with the learner's progress. */
export function ReflectBlock({ spec, storageKey }: { spec: ReflectSpec; storageKey: string }) {
  const note = useLessonProgress((s) => s.notes[storageKey] ?? '');
  const setNote = useLessonProgress((s) => s.setNote);
  const id = useId();
  return (
    <section className="block reflect" aria-label="Reflect">
      <p className="block-kicker" aria-hidden="true">
        Reflect
      </p>
      <label htmlFor={id} className="reflect-question">
        <InlineText text={spec.question} />
      </label>
      {spec.prompt && (
        <p className="block-note">
          <InlineText text={spec.prompt} />
        </p>
      )}
      <textarea
        id={id}
        rows={4}
        value={note}
        onChange={(e) => setNote(storageKey, e.target.value)}
        placeholder="Your notes (saved in this browser)"
      />
    </section>
  );
}
