import { gateLeft, isListed, lessonTitle } from '../../lessons/lessonAccess';
import type { CatalogIndex, LessonEntry } from '../../lessons/lessonIndex';
import type { Course } from '../../lessons/types';
import { useProgress } from '../progress/progressStore';
import { useVisits } from '../progress/visits';
import { continueFrom } from './continueFrom';
import { lessonHref } from '../routing/route';
import './course.css';

/**
 * The home page: every course with its listed lessons in order (a hidden one is reached by its
 * link only), reading times and progress; a gated lesson says what it waits for.
 */
export function CourseMap({ catalog }: { catalog: CatalogIndex }) {
  const completed = useProgress((s) => s.completed);
  const lastLesson = useVisits((s) => s.lastLesson);
  const withLessons = catalog.courses
    .map((course) => ({
      course,
      lessons: catalog.lessons.filter((l) => l.frontmatter.course === course.id && isListed(l)),
    }))
    .filter((c) => c.lessons.length > 0);

  return (
    <div className="course-map">
      <header className="intro">
        <h1 tabIndex={-1}>Learn distributed locks by breaking them</h1>
        <p>
          Each lesson is a short read with a live simulation: pause a process, cut the network, fail over Redis, and
          watch two clients both believe they hold the lock. Then fix it.
        </p>
      </header>
      <ContinueCard catalog={catalog} completed={completed} lastLesson={lastLesson} />
      {withLessons.length === 0 && <p className="empty">No lessons have been published yet.</p>}
      {withLessons.map(({ course, lessons }) => (
        <CourseSection key={course.id} course={course} lessons={lessons} all={catalog.lessons} completed={completed} />
      ))}
    </div>
  );
}

/** "Continue where you left off": shown once the learner has opened a lesson before. */
function ContinueCard({
  catalog,
  completed,
  lastLesson,
}: {
  catalog: CatalogIndex;
  completed: Record<string, string>;
  lastLesson: string | null;
}) {
  const next = continueFrom(catalog, completed, lastLesson);
  if (next === null) return null;
  const { lesson, position, of, courseTitle, resumed } = next;
  return (
    <section className="continue-card" aria-labelledby="continue-heading">
      <h2 id="continue-heading">{resumed ? 'Continue where you left off' : 'Up next'}</h2>
      <p>
        <a className="button button-primary" href={lessonHref(lesson.frontmatter.slug)}>
          {lesson.frontmatter.title}
        </a>
        <span className="continue-meta">
          {courseTitle}, lesson {position} of {of} · {lesson.frontmatter.readTime} min
        </span>
      </p>
    </section>
  );
}

/** One course: its listed lessons in order, each with its reading time, whether it is done, and what a closed gate waits for. */
export function CourseSection({
  course,
  lessons,
  all,
  completed,
}: {
  course: Course;
  lessons: LessonEntry[];
  all: LessonEntry[];
  completed: Record<string, string>;
}) {
  const doneCount = lessons.filter((l) => completed[l.frontmatter.slug]).length;
  const headingId = `course-${course.id}`;
  return (
    <section className="course" aria-labelledby={headingId}>
      <div className="course-head">
        <h2 id={headingId}>{course.title}</h2>
        <p className="course-progress">
          <span>
            {doneCount} of {lessons.length} done
          </span>
          <progress
            max={lessons.length}
            value={doneCount}
            aria-label={`${course.title}: ${doneCount} of ${lessons.length} lessons done`}
          />
        </p>
      </div>
      <p className="course-description">{course.description}</p>
      <ol className="lesson-list">
        {lessons.map((l, i) => {
          const done = !!completed[l.frontmatter.slug];
          const left = gateLeft(l, completed);
          return (
            <li key={l.frontmatter.slug} className={`lesson-card ${done ? 'is-done' : ''}`}>
              <span className="lesson-number" aria-hidden="true">
                {done ? '✓' : i + 1}
              </span>
              <div>
                <h3>
                  <a href={lessonHref(l.frontmatter.slug)}>{l.frontmatter.title}</a>
                </h3>
                <p className="lesson-card-summary">{l.frontmatter.summary}</p>
                <p className="lesson-card-meta">
                  {l.frontmatter.readTime} min read{done && <span className="done-label"> · Done</span>}
                  {left.length > 0 && (
                    <span className="lesson-card-gate">
                      {' '}
                      · Opens after {left.map((slug) => lessonTitle(all, slug)).join(', ')}
                    </span>
                  )}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
