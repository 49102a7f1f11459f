import type { ProgressData } from './progressData';

/**
 * What one tab changed in the learner's progress since it last read or wrote it: per table,
 * each entry set to a new value or removed (`undefined`). Saving these instead of the whole
 * record is what keeps two open tabs from erasing each other's work: a lesson marked done in
 * one tab survives a quiz answered in the other a moment later.
 */
export type ProgressChanges = { [T in keyof ProgressData]: Record<string, ProgressData[T][string] | undefined> };

const TABLES = ['completed', 'quizzes', 'notes', 'checks'] as const;

/** The entries `next` sets or removes relative to `base`, compared by value. */
export function progressChanges(base: ProgressData, next: ProgressData): ProgressChanges {
  const changes: ProgressChanges = { completed: {}, quizzes: {}, notes: {}, checks: {} };
  for (const table of TABLES) {
    const before: Record<string, unknown> = base[table];
    const after: Record<string, unknown> = next[table];
    const changed: Record<string, unknown> = changes[table];
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key) || !sameValue(before[key], after[key])) changed[key] = after[key];
    }
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(after, key)) changed[key] = undefined;
    }
  }
  return changes;
}

/** `onto` with `changes` applied; entries the changes do not name are kept as they are. */
export function applyProgressChanges(onto: ProgressData, changes: ProgressChanges): ProgressData {
  const merged: ProgressData = {
    completed: { ...onto.completed },
    quizzes: { ...onto.quizzes },
    notes: { ...onto.notes },
    checks: { ...onto.checks },
  };
  for (const table of TABLES) {
    const target: Record<string, unknown> = merged[table];
    for (const [key, value] of Object.entries(changes[table] as Record<string, unknown>)) {
      if (value === undefined) delete target[key];
      else target[key] = value;
    }
  }
  return merged;
}

/** Entries are strings, booleans or small quiz records: comparing their JSON is exact. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
