import { useEffect } from 'react';
import { gateLeft, isListed, lessonTitle } from '../../lessons/lessonAccess';
import type { LessonEntry } from '../../lessons/lessonIndex';
import type { Block, Course, Lesson } from '../../lessons/types';
import { prefetchLesson, retryLesson, useLessonBody } from '../catalog/lessonBodies';
import { loadLive } from '../player/ScenarioPlayer';
import { PartBoundary } from '../layout/PartBoundary';
import { useProgress } from '../progress/progressStore';
import { useVisits } from '../progress/visits';
import { lessonHref } from '../routing/route';
import { BlockView } from './BlockView';
import { LessonGate } from './LessonGate';
import { LessonSources } from './LessonSources';
import type { Completion } from './lessonCompletion';
import { useAutoComplete } from './useAutoComplete';
import { useBlocksShown } from './useBlocksShown';
import './lesson.css';

/**
 * The lesson reader: header, the blocks in order, then "mark as done" and the way onward. The
 * header and footer come from the catalog index; the blocks arrive with the lesson's own chunk.
 */
export function LessonPage({
  entry,
  course,
  lessons,
}: {
  entry: LessonEntry;
  course: Course | undefined;
  lessons: LessonEntry[];
}) {
  const fm = entry.frontmatter;
  const done = useProgress((s) => !!s.completed[fm.slug]);
  const setDone = useProgress((s) => s.setDone);
  const left = gateLeft(
    entry,
    useProgress((s) => s.completed),
  );
  // A hidden lesson has no place in its course's order: no "Lesson n of m", no previous or next.
  const siblings = lessons.filter((l) => l.frontmatter.course === fm.course && isListed(l));
  const index = siblings.findIndex((l) => l.frontmatter.slug === fm.slug);
  const previous = index < 0 ? undefined : siblings[index - 1];
  const next = index < 0 ? undefined : siblings[index + 1];
  const completion = useAutoComplete(entry);
  const body = useLessonBody(fm.slug);
  useEffect(() => useVisits.getState().visit(fm.slug), [fm.slug]);
  // While this lesson is read, fetch the next one so that "next" opens at once: once this one's
  // body and its players' code have arrived, not beside them (on a 2-core machine the next
  // body's request and evaluation delayed this lesson's first player).
  const nextSlug = next?.frontmatter.slug;
  const bodyHere = body.lesson !== undefined;
  useEffect(
    () => (nextSlug && bodyHere ? prefetchLesson(nextSlug, loadLive.settled()) : undefined),
    [nextSlug, bodyHere],
  );

  return (
    <article className="lesson" aria-labelledby="lesson-title">
      <header className="lesson-header">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <a href="#/">Courses</a>
          <span aria-hidden="true"> / </span>
          <span>{course?.title ?? fm.course}</span>
        </nav>
        <h1 id="lesson-title" tabIndex={-1}>
          {fm.title}
        </h1>
        <p className="lesson-meta">
          <span>
            {index < 0 ? 'An extra lesson, not in the course list' : `Lesson ${index + 1} of ${siblings.length}`}
          </span>
          <span aria-hidden="true"> · </span>
          <span>{fm.readTime} min</span>
          {done && (
            <>
              <span aria-hidden="true"> · </span>
              <span className="done-label">Done</span>
            </>
          )}
        </p>
        <p className="lesson-summary">{fm.summary}</p>
        {fm.prerequisites.length > 0 && left.length === 0 && (
          <p className="lesson-prereq">
            Read first:{' '}
            {fm.prerequisites.map((slug, i) => (
              <span key={slug}>
                {i > 0 && ', '}
                <a href={lessonHref(slug)}>{lessonTitle(lessons, slug)}</a>
              </span>
            ))}
          </p>
        )}
      </header>

      {left.length > 0 ? (
        <LessonGate left={left} lessons={lessons} />
      ) : (
        <LessonBody slug={fm.slug} lesson={body.lesson} failed={body.failed} />
      )}

      <footer className="lesson-footer">
        {left.length === 0 && (
          <>
            <p className="lesson-completion" role="status" aria-label="Lesson progress">
              {completionText(completion, done)}
            </p>
            <button
              type="button"
              className={`button ${done ? 'button-secondary' : 'button-primary'}`}
              aria-pressed={done}
              onClick={() => setDone(fm.slug, !done)}
            >
              {done ? 'Done ✓ (mark as not done)' : 'Mark this lesson as done'}
            </button>
          </>
        )}
        <nav aria-label="Lessons in this course" className="lesson-pager">
          {previous ? (
            <a href={lessonHref(previous.frontmatter.slug)} rel="prev">
              ← {previous.frontmatter.title}
            </a>
          ) : (
            <span />
          )}
          {next ? (
            <a href={lessonHref(next.frontmatter.slug)} rel="next">
              {next.frontmatter.title} →
            </a>
          ) : (
            <a href="#/">Back to all courses</a>
          )}
        </nav>
      </footer>
    </article>
  );
}

/**
 * The blocks, or while they load a placeholder as tall as a screen (so the footer does not jump
 * up and back), or the failure with a retry.
 */
function LessonBody({ slug, lesson, failed }: { slug: string; lesson: Lesson | undefined; failed: boolean }) {
  if (lesson) return <LessonBlocks lesson={lesson} />;
  if (failed) {
    return (
      <div className="lesson-body lesson-body-pending">
        <div role="alert" className="lesson-load-failed">
          <p>
            This lesson could not be loaded. Check your connection: once the site has been open online, it keeps working
            offline.
          </p>
          <button type="button" className="button button-primary" onClick={() => retryLesson(slug)}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="lesson-body lesson-body-pending" aria-busy="true">
      <p role="status" className="lesson-loading">
        Loading the lesson…
      </p>
    </div>
  );
}

/** What a learner calls each kind of block, for the message when one stops working. */
const BLOCK_NAMES: Record<Exclude<Block['kind'], 'prose'>, string> = {
  scenario: 'simulation',
  compare: 'comparison',
  quiz: 'question',
  reflect: 'reflection',
  match: 'exercise',
  checklist: 'checklist',
  'fill-in': 'exercise',
  workbench: 'workbench',
  claims: 'note',
  invalid: 'block',
};

/**
 * The lesson's blocks, its first player first (see useBlocksShown); until the rest follows, a
 * screen's height of room keeps the footer where it will be.
 */
function LessonBlocks({ lesson }: { lesson: Lesson }) {
  const shown = useBlocksShown(lesson);
  return (
    <div className="lesson-body" aria-busy={shown < lesson.blocks.length}>
      {lesson.blocks.slice(0, shown).map((block, i) => (
        <PartBoundary
          key={'id' in block ? block.id : `prose-${i}`}
          what={block.kind === 'prose' ? 'This part of the lesson' : `This ${BLOCK_NAMES[block.kind]}`}
        >
          <BlockView block={block} lesson={lesson} />
        </PartBoundary>
      ))}
      {shown < lesson.blocks.length ? (
        <div className="lesson-rest-pending" />
      ) : (
        <LessonSources sources={lesson.frontmatter.sources} />
      )}
    </div>
  );
}

/** What is left before the lesson counts as done, in a sentence. */
function completionText(c: Completion, done: boolean): string {
  if (done && !c.complete) return 'You marked this lesson as done.';
  if (done)
    return `Done: you ${[c.quizzes > 0 && (c.quizzes === 1 ? 'answered the question' : 'answered the questions'), c.mainScenario !== null && 'ran the simulation'].filter(Boolean).join(' and ')}.`;
  const left: string[] = [];
  const unanswered = c.quizzes - c.quizzesAnswered;
  if (unanswered > 0)
    left.push(
      c.quizzes === 1
        ? 'get the question right'
        : unanswered === 1
          ? 'get one more question right'
          : `get ${unanswered} more questions right`,
    );
  if (!c.mainScenarioRun) left.push('run the first simulation to its end');
  return left.length > 0 ? `To finish this lesson: ${left.join(' and ')}.` : 'Mark it as done when you are ready.';
}
