import type { ChecklistSpec } from '../../lessons/blocks/checklist';
import { useLessonProgress } from '../progress/progressScope';
import { InlineText } from './InlineText';

/** Items to tick off; ticks are saved with the learner's progress. */
export function ChecklistBlock({ spec, storageKey }: { spec: ChecklistSpec; storageKey: string }) {
  const checks = useLessonProgress((s) => s.checks);
  const setCheck = useLessonProgress((s) => s.setCheck);
  const done = spec.items.filter((item) => checks[`${storageKey}/${item.id}`]).length;
  return (
    <section className="block checklist" aria-label="Checklist">
      <p className="block-kicker" aria-hidden="true">
        Checklist
      </p>
      <fieldset>
        <legend className="block-title">
          <InlineText text={spec.title} />
        </legend>
        <p className="block-note">
          {done} of {spec.items.length} done
        </p>
        <ul className="checklist-items">
          {spec.items.map((item) => {
            const key = `${storageKey}/${item.id}`;
            return (
              <li key={item.id}>
                <label className="choice">
                  <input type="checkbox" checked={!!checks[key]} onChange={(e) => setCheck(key, e.target.checked)} />
                  <span className="choice-text">
                    <InlineText text={item.text} />
                    {item.detail && (
                      <span className="choice-detail">
                        <InlineText text={item.detail} />
                      </span>
                    )}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </section>
  );
}
