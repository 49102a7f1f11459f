import { create } from 'zustand';
import * as built from 'virtual:lessons';
import type { Catalog } from '../../lessons/types';

/**
 * The lessons compiled into the site. In `npm run dev` a saved lesson replaces the catalog in
 * place (hot update), so the page shows the edit, or its validation errors, without a reload.
 */
export const useCatalog = create<Catalog>(() => ({ courses: built.courses, lessons: built.lessons, diagnostics: built.diagnostics }));

if (import.meta.hot) {
  import.meta.hot.accept('virtual:lessons', (next) => {
    if (next) useCatalog.setState({ courses: next.courses, lessons: next.lessons, diagnostics: next.diagnostics });
  });
}
