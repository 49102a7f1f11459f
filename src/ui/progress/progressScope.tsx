import { createContext, useContext, useState, type ReactNode } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { progressState, useProgress, type ProgressState } from './progressStore';

/** The progress store the blocks below answer into; none given means the learner's saved progress. */
const ProgressScope = createContext<StoreApi<ProgressState> | null>(null);

/**
 * Reads a lesson block's progress from the store in scope: the learner's (saved in localStorage)
 * on a lesson page, a throwaway one in an instructor's preview, so that answering a quiz there
 * never touches what a learner saved.
 */
export function useLessonProgress<T>(selector: (s: ProgressState) => T): T {
  const scoped = useContext(ProgressScope);
  return useStore(scoped ?? useProgress, selector);
}

/** Gives the blocks inside their own progress, kept in memory and gone when this unmounts. */
export function InMemoryProgress({ children }: { children: ReactNode }) {
  const [store] = useState(() => createStore<ProgressState>()(progressState));
  return <ProgressScope.Provider value={store}>{children}</ProgressScope.Provider>;
}
