/**
 * What a learner's progress looks like on disk, and how older saved versions are upgraded.
 * Pure data and functions, with no React or browser storage, so they can be unit-tested.
 */

/** The answer state of one quiz or match block, keyed by `<lesson slug>/<block id>`. */
export interface QuizAnswer {
  /** Choice quizzes: the ids of the selected options. */
  selected: string[];
  /** True/false sets: statement id -> the learner's verdict. Match blocks: problem id -> tool id. */
  picks: Record<string, string>;
  /** True once the learner submitted (or pressed "I've thought about it"): explanations show. */
  committed: boolean;
  /** How many hints are showing. */
  hintsShown: number;
  /**
   * The quiz counts toward finishing its lesson: answered right at least once, or its answer
   * shown after a wrong try. Kept through "Try again". Absent in progress saved before it
   * existed, where a committed answer counts.
   */
  earned?: boolean;
  /** A wrong answer was checked at least once (kept through "Try again"). */
  missed?: boolean;
}

/** Whether a quiz counts toward finishing its lesson (see QuizAnswer.earned). */
export function quizEarned(answer: QuizAnswer | undefined): boolean {
  return answer?.earned ?? answer?.committed ?? false;
}

export interface ProgressData {
  /** Lesson slug -> when it was marked done (ISO time). */
  completed: Record<string, string>;
  /** `<slug>/<block id>` -> answer state. */
  quizzes: Record<string, QuizAnswer>;
  /** `<slug>/<block id>` or `<slug>/<block id>/<field id>` -> free text (reflect notes, fill-ins). */
  notes: Record<string, string>;
  /** `<slug>/<block id>/<item id>` -> ticked. */
  checks: Record<string, boolean>;
}

export const PROGRESS_VERSION = 1;

/** Upgrades saved data from version N to N + 1. Add an entry whenever ProgressData changes shape. */
export type Migrations = Record<number, (old: unknown) => unknown>;
export const MIGRATIONS: Migrations = {};

export function emptyProgress(): ProgressData {
  return { completed: {}, quizzes: {}, notes: {}, checks: {} };
}

/** Why saved progress could not be used as-is. */
export type LoadProblem = 'corrupt' | 'newer';

/**
 * Turns the saved text (`{ state, version }`, as Zustand's persist writes it) into usable
 * progress: migrated to the current version and checked field by field. Unparseable or
 * malformed data, and data from a newer version of the site, yield defaults plus the reason,
 * so the caller can back the original up before anything overwrites it.
 */
export function readProgress(
  raw: string | null,
  migrations: Migrations = MIGRATIONS,
  currentVersion: number = PROGRESS_VERSION,
): { data: ProgressData; problem?: LoadProblem } {
  if (raw === null) return { data: emptyProgress() };
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return { data: emptyProgress(), problem: 'corrupt' };
  }
  if (!isRecord(envelope) || typeof envelope.version !== 'number' || !Number.isInteger(envelope.version)) {
    return { data: emptyProgress(), problem: 'corrupt' };
  }
  if (envelope.version > currentVersion) return { data: emptyProgress(), problem: 'newer' };
  let state: unknown = envelope.state;
  for (let v = envelope.version; v < currentVersion; v++) {
    const step = migrations[v];
    if (!step) return { data: emptyProgress(), problem: 'corrupt' };
    try {
      state = step(state);
    } catch {
      return { data: emptyProgress(), problem: 'corrupt' };
    }
  }
  return isProgressData(state) ? { data: state } : { data: emptyProgress(), problem: 'corrupt' };
}

/** Serialises progress in the same envelope Zustand's persist uses, for export files and storage. */
export function writeProgress(data: ProgressData): string {
  return JSON.stringify({ state: data, version: PROGRESS_VERSION });
}

/**
 * Moves progress saved under a lesson's former slugs to its current slug, so renaming a lesson
 * (and listing the old name in `formerSlugs`) keeps what the learner did.
 */
export function adoptFormerSlugs(data: ProgressData, renames: { slug: string; formerSlugs: string[] }[]): ProgressData {
  let changed = false;
  const next: ProgressData = {
    completed: { ...data.completed },
    quizzes: { ...data.quizzes },
    notes: { ...data.notes },
    checks: { ...data.checks },
  };
  for (const { slug, formerSlugs } of renames) {
    for (const old of formerSlugs) {
      if (old in next.completed && !(slug in next.completed)) {
        next.completed[slug] = next.completed[old]!;
        delete next.completed[old];
        changed = true;
      }
      for (const table of [next.quizzes, next.notes, next.checks] as Record<string, unknown>[]) {
        for (const key of Object.keys(table)) {
          if (!key.startsWith(`${old}/`)) continue;
          const renamed = `${slug}/${key.slice(old.length + 1)}`;
          if (!(renamed in table)) table[renamed] = table[key];
          delete table[key];
          changed = true;
        }
      }
    }
  }
  return changed ? next : data;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function recordOf(v: unknown, check: (item: unknown) => boolean): boolean {
  return isRecord(v) && Object.values(v).every(check);
}

function isQuizAnswer(v: unknown): boolean {
  return (
    isRecord(v) &&
    Array.isArray(v.selected) &&
    v.selected.every((s) => typeof s === 'string') &&
    recordOf(v.picks, (p) => typeof p === 'string') &&
    typeof v.committed === 'boolean' &&
    typeof v.hintsShown === 'number' &&
    v.hintsShown >= 0 &&
    (v.earned === undefined || typeof v.earned === 'boolean') &&
    (v.missed === undefined || typeof v.missed === 'boolean')
  );
}

/** A field-by-field check of saved progress; anything else counts as corrupt. */
export function isProgressData(v: unknown): v is ProgressData {
  return (
    isRecord(v) &&
    recordOf(v.completed, (t) => typeof t === 'string') &&
    recordOf(v.quizzes, isQuizAnswer) &&
    recordOf(v.notes, (t) => typeof t === 'string') &&
    recordOf(v.checks, (t) => typeof t === 'boolean')
  );
}
