import type { Source } from '../../lessons/frontmatter';

/** "Sources and further reading": where the lesson's facts come from, each opening in a new tab. */
export function LessonSources({ sources }: { sources: readonly Source[] }) {
  if (sources.length === 0) return null;
  return (
    <section className="lesson-sources" aria-labelledby="lesson-sources-heading">
      <h2 id="lesson-sources-heading">Sources and further reading</h2>
      <ul>
        {sources.map((source) => (
          <li key={source.url}>
            <a href={source.url} target="_blank" rel="noopener noreferrer">
              {source.title}
              <span aria-hidden="true"> ↗</span>
              <span className="visually-hidden"> (external site, opens in a new tab)</span>
            </a>
            {source.by !== undefined && <span className="lesson-source-by">, {source.by}</span>}
            {source.note !== undefined && <span className="lesson-source-note">. {source.note}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
