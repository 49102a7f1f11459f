import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Where the learner has been on this device: the lesson opened last, and which scenarios were
 * watched to their end or to the moment an invariant broke (keyed `<lesson slug>/<block id>`).
 * A lesson counts as done once its quizzes are answered and its main scenario has run. Kept
 * apart from the answers: these are facts about visits, not work worth exporting.
 */
interface VisitsState {
  ran: Record<string, true>;
  markRun(key: string): void;
  /** The lesson the learner opened last, for "Continue where you left off". */
  lastLesson: string | null;
  visit(slug: string): void;
}

export const useVisits = create<VisitsState>()(
  persist(
    (set) => ({
      ran: {},
      markRun: (key) => set((s) => (s.ran[key] ? s : { ran: { ...s.ran, [key]: true } })),
      lastLesson: null,
      visit: (slug) => set((s) => (s.lastLesson === slug ? s : { lastLesson: slug })),
    }),
    {
      name: 'lockstep.visits',
      version: 1,
      // Where storage is forbidden (some private modes) getStorage throws and this lasts a tab.
      storage: createJSONStorage(() => window.localStorage),
      partialize: (s) => ({ ran: s.ran, lastLesson: s.lastLesson }),
    },
  ),
);
