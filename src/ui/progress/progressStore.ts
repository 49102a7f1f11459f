import { create, type StateCreator } from 'zustand';
import { persist } from 'zustand/middleware';
import { useNotices } from './noticeStore';
import { adoptFormerSlugs, emptyProgress, PROGRESS_VERSION, type ProgressData, type QuizAnswer } from './progressData';
import { isQuotaError, progressStorage, type KeyValueStore, type StorageNotice } from './safeStorage';

export const PROGRESS_KEY = 'lockstep.progress';

interface ProgressActions {
  setDone(slug: string, done: boolean): void;
  updateQuiz(key: string, patch: Partial<QuizAnswer>): void;
  resetQuiz(key: string): void;
  setNote(key: string, text: string): void;
  setCheck(key: string, checked: boolean): void;
  /** Replaces everything, e.g. with an imported file. */
  replaceAll(data: ProgressData): void;
  /** Moves progress of renamed lessons to their current slugs. */
  adoptRenames(renames: { slug: string; formerSlugs: string[] }[]): void;
}

export type ProgressState = ProgressData & ProgressActions;

export const EMPTY_ANSWER: QuizAnswer = { selected: [], picks: {}, committed: false, hintsShown: 0 };

function noticeText(n: StorageNotice): { id: string; tone: 'info' | 'warning'; text: string } {
  if (n.kind === 'memory-only') {
    return {
      id: 'storage-memory',
      tone: 'warning',
      text:
        n.reason === 'full'
          ? 'Your browser storage is full, so new progress is kept only until you close this tab. Export your progress to keep it.'
          : 'This browser does not let the site save anything, so your progress lasts only until you close this tab. Export it to keep it.',
    };
  }
  const why = n.problem === 'newer' ? 'was saved by a newer version of Lockstep' : 'could not be read';
  const where = n.backupKey ? ` A copy was kept in this browser under "${n.backupKey}".` : '';
  return {
    id: 'storage-recovered',
    tone: 'warning',
    text: `Your saved progress ${why}, so you are starting fresh.${where}`,
  };
}

/**
 * localStorage if the browser lets us use it, else null (private modes and policies can forbid
 * it). Storage that is only full is still used: what is saved can be read, and the first save
 * that does not fit says the real cause (progressStorage's "full").
 */
function browserStore(): KeyValueStore | null {
  let s: Storage;
  try {
    s = window.localStorage;
  } catch {
    return null;
  }
  try {
    s.setItem('lockstep.probe', '1');
    s.removeItem('lockstep.probe');
    return s;
  } catch (error) {
    return isQuotaError(error) ? s : null;
  }
}

/** Set while the progress loads if what was saved could not be read (progressStorage backed it up). */
let recoveredAtLoad = false;

/**
 * What progress holds and how answers change it, apart from where it is kept: the learner's
 * store saves it in localStorage, an instructor's preview keeps its own copy in memory only.
 */
export const progressState: StateCreator<ProgressState> = (set, get) => ({
  ...emptyProgress(),
  setDone: (slug, done) =>
    set((s) => {
      const completed = { ...s.completed };
      if (done) completed[slug] = new Date().toISOString();
      else delete completed[slug];
      return { completed };
    }),
  updateQuiz: (key, patch) =>
    set((s) => ({ quizzes: { ...s.quizzes, [key]: { ...EMPTY_ANSWER, ...s.quizzes[key], ...patch } } })),
  // "Try again" clears the answer but not what it earned or missed.
  resetQuiz: (key) =>
    set((s) => {
      const quizzes = { ...s.quizzes };
      const { earned, missed } = quizzes[key] ?? {};
      if (earned || missed)
        quizzes[key] = { ...EMPTY_ANSWER, ...(earned ? { earned } : {}), ...(missed ? { missed } : {}) };
      else delete quizzes[key];
      return { quizzes };
    }),
  setNote: (key, text) => set((s) => ({ notes: { ...s.notes, [key]: text } })),
  setCheck: (key, checked) => set((s) => ({ checks: { ...s.checks, [key]: checked } })),
  replaceAll: (data) => set(() => ({ ...data })),
  // Runs on every page load: it saves only when a rename moved something (a save serializes
  // the whole progress into localStorage, ~5 ms while the first page renders).
  adoptRenames: (renames) => {
    const s = get();
    const data = { completed: s.completed, quizzes: s.quizzes, notes: s.notes, checks: s.checks };
    const next = adoptFormerSlugs(data, renames);
    if (next !== data) set(next);
  },
});

/** The learner's progress, saved in localStorage through Zustand's persist (versioned). */
export const useProgress = create<ProgressState>()(
  persist(progressState, {
    name: PROGRESS_KEY,
    version: PROGRESS_VERSION,
    storage: progressStorage(typeof window === 'undefined' ? null : browserStore(), (n) => {
      if (n.kind === 'recovered') recoveredAtLoad = true;
      useNotices.getState().show(noticeText(n));
    }),
    partialize: (s): ProgressData => ({ completed: s.completed, quizzes: s.quizzes, notes: s.notes, checks: s.checks }),
  }),
);

// What could not be read was backed up as the progress loaded: the defaults that loaded take its
// place now, as any save would, so that the next page does not recover it (and say so) again.
if (recoveredAtLoad) useProgress.setState({});

/** Keeps two open tabs in step: when the other tab saves, this one reloads what it saved. */
export function syncAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === PROGRESS_KEY) void useProgress.persist.rehydrate();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
