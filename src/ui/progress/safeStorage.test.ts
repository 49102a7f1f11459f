import { describe, expect, it } from 'vitest';
import { emptyProgress, PROGRESS_VERSION, writeProgress } from './progressData';
import { isQuotaError, memoryStore, progressStorage, type KeyValueStore, type StorageNotice } from './safeStorage';

function setup(backend: KeyValueStore | null) {
  const notices: StorageNotice[] = [];
  const storage = progressStorage(
    backend,
    (n) => notices.push(n),
    () => 1234,
  );
  return { storage, notices };
}

describe('progressStorage', () => {
  it('backs corrupt data up under a timestamped key before loading defaults', () => {
    const backend = memoryStore();
    backend.setItem('p', '{oops');
    const { storage, notices } = setup(backend);
    expect(storage.getItem('p')).toEqual({ state: emptyProgress(), version: PROGRESS_VERSION });
    expect(backend.getItem('p.backup.1234')).toBe('{oops');
    expect(notices).toEqual([{ kind: 'recovered', problem: 'corrupt', backupKey: 'p.backup.1234' }]);
  });

  it('backs up data written by a newer version', () => {
    const backend = memoryStore();
    const newer = JSON.stringify({ state: {}, version: PROGRESS_VERSION + 5 });
    backend.setItem('p', newer);
    const { storage, notices } = setup(backend);
    storage.getItem('p');
    expect(backend.getItem('p.backup.1234')).toBe(newer);
    expect(notices[0]).toMatchObject({ kind: 'recovered', problem: 'newer' });
  });

  it('works in memory with a notice when storage is unavailable', () => {
    const { storage, notices } = setup(null);
    storage.setItem('p', { state: emptyProgress(), version: PROGRESS_VERSION });
    expect(storage.getItem('p')).toEqual({ state: emptyProgress(), version: PROGRESS_VERSION });
    expect(notices).toEqual([{ kind: 'memory-only', reason: 'unavailable' }]);
  });

  it('switches to memory when storage is full and keeps the latest state readable', () => {
    const full: KeyValueStore = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    const { storage, notices } = setup(full);
    const state = { ...emptyProgress(), completed: { a: 't' } };
    storage.setItem('p', { state, version: PROGRESS_VERSION });
    expect(notices).toEqual([{ kind: 'memory-only', reason: 'full' }]);
    expect(storage.getItem('p')).toEqual({ state, version: PROGRESS_VERSION });
  });

  it('loads saved progress untouched and without notices', () => {
    const backend = memoryStore();
    const state = { ...emptyProgress(), notes: { 'a/b': 'x' } };
    backend.setItem('p', writeProgress(state));
    const { storage, notices } = setup(backend);
    expect(storage.getItem('p')).toEqual({ state, version: PROGRESS_VERSION });
    expect(notices).toEqual([]);
  });
});

describe('isQuotaError: full storage told apart from storage that is off', () => {
  it('knows each browser name for a full storage, and nothing else', () => {
    expect(isQuotaError(new DOMException('exceeded', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED', code: 1014 })).toBe(true);
    expect(isQuotaError(new DOMException('denied', 'SecurityError'))).toBe(false);
    expect(isQuotaError(new Error('quota'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });
});

describe('two tabs saving progress', () => {
  const saved = (backend: KeyValueStore) => JSON.parse(backend.getItem('p')!).state as ReturnType<typeof emptyProgress>;

  it('keeps both when each tab marks a different lesson done before hearing of the other', () => {
    const backend = memoryStore();
    backend.setItem('p', writeProgress({ ...emptyProgress(), completed: { intro: 't0' } }));
    const [one, two] = [setup(backend).storage, setup(backend).storage];
    const loaded = one.getItem('p') as { state: ReturnType<typeof emptyProgress> };
    two.getItem('p');
    one.setItem('p', {
      state: { ...loaded.state, completed: { intro: 't0', locks: 't1' } },
      version: PROGRESS_VERSION,
    });
    two.setItem('p', {
      state: { ...loaded.state, completed: { intro: 't0', fencing: 't1' } },
      version: PROGRESS_VERSION,
    });
    expect(saved(backend).completed).toEqual({ intro: 't0', locks: 't1', fencing: 't1' });
  });

  it('lets a tab remove what it removed, and only that', () => {
    const backend = memoryStore();
    const start = { ...emptyProgress(), completed: { intro: 't0' }, notes: { 'intro/reflect': 'draft' } };
    backend.setItem('p', writeProgress(start));
    const [one, two] = [setup(backend).storage, setup(backend).storage];
    one.getItem('p');
    two.getItem('p');
    one.setItem('p', { state: { ...start, completed: {} }, version: PROGRESS_VERSION });
    two.setItem('p', { state: { ...start, notes: { 'intro/reflect': 'final' } }, version: PROGRESS_VERSION });
    expect(saved(backend)).toEqual({ ...emptyProgress(), notes: { 'intro/reflect': 'final' } });
  });

  it('writes over a stored record it cannot read (its backup was made when it loaded)', () => {
    const backend = memoryStore();
    backend.setItem('p', '{oops');
    const { storage } = setup(backend);
    storage.getItem('p');
    const state = { ...emptyProgress(), checks: { 'a/b/c': true } };
    storage.setItem('p', { state, version: PROGRESS_VERSION });
    expect(saved(backend)).toEqual(state);
    expect(backend.getItem('p.backup.1234')).toBe('{oops');
  });
});
