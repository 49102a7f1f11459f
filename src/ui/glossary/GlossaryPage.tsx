import { useEffect } from 'react';
import { glossaryHref, lessonHref } from '../routing/route';
import { useCatalog } from '../catalog/catalogStore';
import { GLOSSARY, seeInLesson } from './glossary';
import './glossary.css';

/**
 * The invariants a verdict can name, side by side. A verdict's "What does this mean?" link
 * opens this page at its term (`#/glossary/single-writer`), which is scrolled into view.
 */
export function GlossaryPage({ term }: { term: string | undefined }) {
  useEffect(() => {
    if (term === undefined) return;
    const target = document.getElementById(`term-${term}`);
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [term]);
  const lessons = useCatalog((s) => s.lessons);

  return (
    <article className="glossary" aria-labelledby="glossary-title">
      <h1 id="glossary-title" tabIndex={-1}>
        What the verdicts check
      </h1>
      <p className="glossary-intro">
        Every run is judged against these invariants. Three of them sound alike: <strong>single lease</strong> is what
        Redis’s own records say, <strong>single holder</strong> is what the clients believe, and{' '}
        <strong>single writer</strong> is what the resource actually accepted. Most of what goes wrong with distributed
        locks happens in the gaps between those three. A fencing token guarantees less than a single writer:{' '}
        <strong>writes in lease order</strong>.
      </p>
      <dl className="glossary-list">
        {GLOSSARY.map((entry) => ({ entry, seeIn: seeInLesson(entry, lessons) })).map(({ entry, seeIn }) => (
          <div
            key={entry.term}
            id={`term-${entry.term}`}
            tabIndex={-1}
            className={entry.term === term ? 'glossary-entry is-target' : 'glossary-entry'}
          >
            <dt>
              <a href={glossaryHref(entry.term)} className="glossary-anchor">
                {entry.title}
              </a>
              <span className="glossary-view"> · as seen by {entry.view}</span>
            </dt>
            <dd>
              <p className="glossary-promise">{entry.promise}</p>
              <p>{entry.detail}</p>
              {seeIn && (
                <p className="glossary-see">
                  {seeIn.explains ? 'Read about it in' : 'See it break in'}{' '}
                  <a href={lessonHref(seeIn.slug)}>{seeIn.text}</a>.
                </p>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
