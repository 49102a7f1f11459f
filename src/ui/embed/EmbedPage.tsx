import { useEffect, useRef } from 'react';
import type { LessonEntry } from '../../lessons/lessonIndex';
import type { Block, Lesson } from '../../lessons/types';
import { retryLesson, useLessonBody } from '../catalog/lessonBodies';
import { PartBoundary } from '../layout/PartBoundary';
import { BlockView } from '../lesson/BlockView';
import { lessonHref } from '../routing/route';
import type { EmbedHeightMessage } from './embedSnippet';
import './embed.css';

/**
 * One lesson player alone, for an instructor's page or LMS (`#/embed/<slug>/<scenario id>`), with
 * the question asked before it when the link says `?quiz=before`. It tells the page around it
 * its height as it changes (see embedSnippet.ts), and links to the whole lesson.
 */
export function EmbedPage({
  entry,
  scenarioId,
  withQuiz,
}: {
  entry: LessonEntry | undefined;
  scenarioId: string;
  withQuiz: boolean;
}) {
  const root = useRef<HTMLElement>(null);
  useEffect(() => postHeight(root.current), []);
  return (
    <main ref={root} className="embed">
      {entry ? (
        <EmbedBody entry={entry} scenarioId={scenarioId} withQuiz={withQuiz} />
      ) : (
        <p role="alert">This embedded lesson is not on this site any more.</p>
      )}
    </main>
  );
}

function EmbedBody({ entry, scenarioId, withQuiz }: { entry: LessonEntry; scenarioId: string; withQuiz: boolean }) {
  const { slug, title } = entry.frontmatter;
  const body = useLessonBody(slug);
  const wholeLesson = new URL(lessonHref(slug), window.location.href).href;
  const header = (
    <p className="embed-source">
      From the Lockstep lesson{' '}
      <a href={wholeLesson} target="_blank" rel="noopener">
        {title}
      </a>
    </p>
  );
  if (body.failed) {
    return (
      <div role="alert">
        <p>This simulation could not be loaded. Check your connection.</p>
        <button type="button" className="button button-primary" onClick={() => retryLesson(slug)}>
          Try again
        </button>
      </div>
    );
  }
  if (!body.lesson)
    return (
      <p role="status" aria-busy="true">
        Loading the simulation…
      </p>
    );
  const blocks = embeddedBlocks(body.lesson, scenarioId, withQuiz);
  if (!blocks)
    return (
      <p role="alert">
        The lesson “{title}” has no simulation called “{scenarioId}” any more.
      </p>
    );
  return (
    <>
      {header}
      {blocks.map((block) => (
        <PartBoundary
          key={'id' in block ? block.id : 'prose'}
          what={block.kind === 'quiz' ? 'This question' : 'This simulation'}
        >
          <BlockView block={block} lesson={body.lesson!} />
        </PartBoundary>
      ))}
    </>
  );
}

/** The player named `scenarioId`, after the last question asked before it when `withQuiz`; null when there is no such player. */
export function embeddedBlocks(lesson: Lesson, scenarioId: string, withQuiz: boolean): Block[] | null {
  const at = lesson.blocks.findIndex((b) => (b.kind === 'scenario' || b.kind === 'compare') && b.id === scenarioId);
  if (at < 0) return null;
  const player = lesson.blocks[at]!;
  const quiz = withQuiz ? lesson.blocks.slice(0, at).findLast((b) => b.kind === 'quiz') : undefined;
  // A player the lesson holds back for a quiz waits only if that quiz is on the page.
  const { after, ...shown } = player;
  const held = after !== undefined && quiz !== undefined && 'id' in quiz && quiz.id === after;
  const embedded = held ? player : (shown as Block);
  return quiz ? [quiz, embedded] : [embedded];
}

/** Tells the host page the embed's height whenever it changes; returns the cleanup. */
function postHeight(element: HTMLElement | null): (() => void) | undefined {
  if (!element || window.parent === window || typeof ResizeObserver === 'undefined') return undefined;
  const observer = new ResizeObserver(() => {
    const message: EmbedHeightMessage = { lockstepEmbedHeight: Math.ceil(document.documentElement.scrollHeight) };
    window.parent.postMessage(message, '*');
  });
  observer.observe(element);
  return () => observer.disconnect();
}
