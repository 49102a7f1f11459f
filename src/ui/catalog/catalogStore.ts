import { create } from 'zustand';
import * as built from 'virtual:lessons';
import type { CatalogIndex } from '../../lessons/lessonIndex';
import type { Lesson } from '../../lessons/types';

/** The catalog index, and how to fetch a lesson's body (see lessonBodies.ts, which caches them). */
export interface CatalogState extends CatalogIndex {
  loadLesson: (slug: string) => Promise<Lesson>;
}

const stateOf = (m: typeof built): CatalogState => ({
  courses: m.courses,
  lessons: m.lessons,
  diagnostics: m.diagnostics,
  loadLesson: m.loadLesson,
});

/**
 * The lessons compiled into the site, without their bodies. In `npm run dev` a saved lesson
 * replaces the index in place (hot update) with loaders for the new bodies, so the page shows
 * the edit, or its validation errors, without a reload.
 */
export const useCatalog = create<CatalogState>(() => stateOf(built));

if (import.meta.hot) {
  import.meta.hot.accept('virtual:lessons', (next) => {
    if (next) useCatalog.setState(stateOf(next as unknown as typeof built));
  });
}
