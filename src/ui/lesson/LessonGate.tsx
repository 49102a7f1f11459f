import { lessonTitle } from '../../lessons/lessonAccess';
import type { LessonEntry } from '../../lessons/lessonIndex';
import { lessonHref } from '../routing/route';

/**
 * In place of a gated lesson's body while its prerequisites are unfinished: which are left, each
 * a link, and what opens it. The instructor chose the gate (`gated: true`); the learner sees the
 * way through it rather than a locked page.
 */
export function LessonGate({ left, lessons }: { left: string[]; lessons: Pick<LessonEntry, 'frontmatter'>[] }) {
  return (
    <div className="lesson-body">
      <section className="lesson-gate" aria-labelledby="lesson-gate-title">
        <h2 id="lesson-gate-title">
          This lesson opens once you have finished {left.length === 1 ? 'one lesson' : `${left.length} lessons`} first
        </h2>
        <ul>
          {left.map((slug) => (
            <li key={slug}>
              <a href={lessonHref(slug)}>{lessonTitle(lessons, slug)}</a>
            </li>
          ))}
        </ul>
        <p className="lesson-gate-how">A lesson counts as finished when you mark it as done at its end.</p>
      </section>
    </div>
  );
}
