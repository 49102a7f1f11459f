import type { PersistStorage, StorageValue } from 'zustand/middleware';
import { emptyProgress, readProgress, PROGRESS_VERSION, type LoadProblem, type ProgressData } from './progressData';
import { applyProgressChanges, progressChanges } from './progressMerge';

/** Something worth telling the learner about where their progress lives. */
export type StorageNotice =
  | { kind: 'recovered'; problem: LoadProblem; backupKey: string | null }
  | { kind: 'memory-only'; reason: 'unavailable' | 'full' };

/** The two methods of Web Storage we use; `localStorage` fits, and so does a test double. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Whether a storage error means the storage is full (the quota is used up), rather than off.
 * Browsers name it differently: QuotaExceededError (code 22), or Firefox's
 * NS_ERROR_DOM_QUOTA_REACHED (code 1014).
 */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014;
}

/** A store that forgets on reload: used when the browser refuses to store anything. */
export function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/**
 * Wraps browser storage for Zustand's persist so that nothing is ever lost silently:
 * corrupt or newer-version data is copied to a backup key before defaults load; if storage is
 * disabled or full, progress continues in memory. Each case is reported through `notify`.
 * A save writes only what this tab changed since it last read or wrote, on top of what is stored
 * now: another tab's work saved in between stays (merged entry by entry, not record by record).
 *
 * @param backend localStorage, or null when even touching it throws (disabled cookies).
 * @param now supplies the backup key's timestamp (injected so tests are repeatable).
 */
export function progressStorage(
  backend: KeyValueStore | null,
  notify: (notice: StorageNotice) => void,
  now: () => number = Date.now,
): PersistStorage<ProgressData> {
  let store: KeyValueStore = backend ?? memoryStore();
  if (!backend) notify({ kind: 'memory-only', reason: 'unavailable' });

  const fallBackToMemory = (reason: 'unavailable' | 'full') => {
    const memory = memoryStore();
    store = memory;
    notify({ kind: 'memory-only', reason });
  };

  /** What this tab last read or wrote: its own changes are measured against it. */
  let base: ProgressData = emptyProgress();

  /** `state`'s changes since `base`, applied to what is stored now (unless that is unreadable). */
  const mergeWithStored = (name: string, state: ProgressData): ProgressData => {
    let raw: string | null;
    try {
      raw = store.getItem(name);
    } catch {
      return state;
    }
    const stored = readProgress(raw);
    return stored.problem ? state : applyProgressChanges(stored.data, progressChanges(base, state));
  };

  return {
    getItem(name): StorageValue<ProgressData> {
      let raw: string | null;
      try {
        raw = store.getItem(name);
      } catch {
        fallBackToMemory('unavailable');
        raw = null;
      }
      const { data, problem } = readProgress(raw);
      if (problem) {
        const backupKey = `${name}.backup.${now()}`;
        let saved: string | null = backupKey;
        try {
          store.setItem(backupKey, raw ?? '');
        } catch {
          saved = null;
        }
        notify({ kind: 'recovered', problem, backupKey: saved });
      }
      base = data;
      return { state: data, version: PROGRESS_VERSION };
    },
    setItem(name, value) {
      const state = mergeWithStored(name, value.state);
      const text = JSON.stringify({ ...value, state });
      try {
        store.setItem(name, text);
      } catch {
        // Quota exceeded (or storage revoked mid-session): keep going in memory with what we have.
        fallBackToMemory('full');
        store.setItem(name, text);
      }
      base = state;
    },
    removeItem(name) {
      try {
        store.removeItem(name);
      } catch {
        /* nothing to remove from a store we cannot reach */
      }
    },
  };
}
