import { useEffect } from 'react';
import { create } from 'zustand';
import type { Lesson } from '../../lessons/types';
import { useCatalog } from './catalogStore';

/** One lesson body as the page knows it. */
export interface BodyState {
  /** The loaded body; during a reload (a hot update) the previous one stays until the new one arrives. */
  lesson?: Lesson;
  loading: boolean;
  /** The last load failed (offline before the site was cached): the page offers a retry. */
  failed: boolean;
}

/** Lesson bodies fetched so far, by slug. Each is a chunk of its own, loaded on first need. */
export const useLessonBodies = create<{ bodies: Record<string, BodyState> }>(() => ({ bodies: {} }));

// The newest load per slug wins, so a slow old load cannot overwrite a newer body.
const latestLoad = new Map<string, number>();
let loads = 0;

const bodyOf = (slug: string): BodyState | undefined => useLessonBodies.getState().bodies[slug];

/**
 * Fetches a body. A quiet load (a prefetch, a hot update) that fails leaves things as they were
 * rather than showing an error: the learner has not asked for that lesson yet.
 */
function load(slug: string, quiet = false): void {
  const token = ++loads;
  latestLoad.set(slug, token);
  const previous = bodyOf(slug)?.lesson;
  const set = (state: BodyState | undefined) => {
    if (latestLoad.get(slug) !== token) return;
    useLessonBodies.setState(({ bodies }) => {
      const next = { ...bodies };
      if (state) next[slug] = state;
      else delete next[slug];
      return { bodies: next };
    });
  };
  set({ lesson: previous, loading: true, failed: false });
  useCatalog
    .getState()
    .loadLesson(slug)
    .then(
      (lesson) => set({ lesson, loading: false, failed: false }),
      () =>
        set(
          quiet
            ? previous
              ? { lesson: previous, loading: false, failed: false }
              : undefined
            : { lesson: previous, loading: false, failed: true },
        ),
    );
}

/** Starts loading a lesson's body unless it is loaded or on its way. */
export function requestLesson(slug: string): void {
  const state = bodyOf(slug);
  if (!state || (state.failed && !state.loading)) load(slug);
}

/** Loads the body again after a failure (the retry button). */
export function retryLesson(slug: string): void {
  load(slug);
}

/**
 * Loads a body when the browser is idle after `after` (what the page shows first), so opening
 * that lesson next is instant. Returns a function that cancels it if it has not started.
 */
export function prefetchLesson(slug: string, after: Promise<unknown> = Promise.resolve()): () => void {
  let cancel: (() => void) | null = null;
  const start = () => {
    if (!bodyOf(slug)) load(slug, true);
  };
  void after.then(() => {
    if (cancel) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(start, { timeout: 5000 });
      cancel = () => cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(start, 1000);
      cancel = () => clearTimeout(handle);
    }
  });
  return () => {
    cancel?.();
    cancel = () => {};
  };
}

/** A lesson's body for a page: loads it on mount and says whether it is there, coming, or failed. */
export function useLessonBody(slug: string): BodyState {
  const state = useLessonBodies((s) => s.bodies[slug]);
  useEffect(() => requestLesson(slug), [slug]);
  return state ?? { loading: true, failed: false };
}

/** Every lesson's body (checking imported progress needs them all); rejects if one cannot be loaded. */
export function loadAllLessons(): Promise<Lesson[]> {
  const { lessons, loadLesson } = useCatalog.getState();
  return Promise.all(lessons.map((l) => bodyOf(l.frontmatter.slug)?.lesson ?? loadLesson(l.frontmatter.slug)));
}

if (import.meta.hot) {
  // A hot-updated index brings loaders for the edited bodies: reload the bodies already here, in
  // place (the open page keeps showing the old body until the new one arrives), and forget the
  // ones whose lesson is gone.
  useCatalog.subscribe((now, before) => {
    if (now.loadLesson === before.loadLesson) return;
    const slugs = new Set(now.lessons.map((l) => l.frontmatter.slug));
    for (const slug of Object.keys(useLessonBodies.getState().bodies)) {
      if (slugs.has(slug)) load(slug, true);
      else {
        latestLoad.delete(slug);
        useLessonBodies.setState(({ bodies }) => ({
          bodies: Object.fromEntries(Object.entries(bodies).filter(([s]) => s !== slug)),
        }));
      }
    }
  });
}
