import { progressProblems, type KnownLessons } from './progressCheck';
import { adoptFormerSlugs, PROGRESS_VERSION, readProgress, writeProgress, type ProgressData } from './progressData';

/** An exported progress file: the storage envelope plus a marker saying what it is. */
export function progressFileText(data: ProgressData): string {
  const { state, version } = JSON.parse(writeProgress(data)) as { state: ProgressData; version: number };
  return `${JSON.stringify({ app: 'lockstep', kind: 'progress', version, state }, null, 2)}\n`;
}

export type ProgressFileResult = { ok: true; data: ProgressData } | { ok: false; message: string };

/**
 * The longest progress file an import reads: every lesson done with every quiz answered and a
 * page of notes each is under 200 KB.
 */
export const MAX_PROGRESS_FILE_CHARS = 2_000_000;
/** Progress nests five levels (file, state, table, quiz, picks); JSON.parse recurses per level. */
const MAX_JSON_DEPTH = 16;

/** How many problems a refusal lists before "and N more". */
const LISTED = 4;

/**
 * Reads an exported file back and checks it against the site's lessons. A refusal says why in a
 * sentence the learner can act on: not a progress file, a file from a newer Lockstep (naming both
 * versions), or the entries that no lesson here could have written. Progress saved under a
 * lesson's former slug (`renames`, from the lessons' `formerSlugs`) moves to its current slug first.
 */
export function parseProgressFile(
  text: string,
  known: KnownLessons,
  renames: { slug: string; formerSlugs: string[] }[] = [],
  currentVersion: number = PROGRESS_VERSION,
): ProgressFileResult {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return { ok: false, message: 'it is not a Lockstep progress file (it nests far deeper than progress does)' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'it is not a Lockstep progress file (it is not JSON)' };
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as { app?: unknown }).app !== 'lockstep') {
    return { ok: false, message: 'it is not a Lockstep progress file (Export progress makes one)' };
  }
  const version = (parsed as { version?: unknown }).version;
  if (typeof version === 'number' && version > currentVersion) {
    return {
      ok: false,
      message: `this file was made by a newer Lockstep (version ${version}); this one reads version ${currentVersion}. Reload the page to update Lockstep, then import it again`,
    };
  }
  const { data: saved, problem } = readProgress(JSON.stringify(parsed), undefined, currentVersion);
  const data = adoptFormerSlugs(saved, renames);
  if (problem)
    return {
      ok: false,
      message: 'it is a Lockstep progress file, but damaged: its entries do not have the shape progress has',
    };
  const problems = progressProblems(data, known);
  if (problems.length) {
    const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : '';
    return {
      ok: false,
      message: `it holds progress no lesson here could have saved: ${problems.slice(0, LISTED).join('; ')}${more}`,
    };
  }
  return { ok: true, data };
}

/** Whether JSON text nests arrays and objects deeper than `max`: a scan, so a hostile file costs no parse. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // a backslash escapes the next character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      if (++depth > max) return true;
    } else if (ch === 93 || ch === 125) depth--;
  }
  return false;
}

/** Counts a learner would recognise: lessons done, answered quizzes, notes, ticked items. */
function counts(d: ProgressData): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    n(Object.keys(d.completed).length, 'lesson done', 'lessons done'),
    n(Object.values(d.quizzes).filter((q) => q.committed).length, 'answered quiz', 'answered quizzes'),
    n(Object.values(d.notes).filter((t) => t.trim() !== '').length, 'note', 'notes'),
    n(Object.values(d.checks).filter(Boolean).length, 'ticked item', 'ticked items'),
  ].join(', ');
}

/**
 * What replacing `current` with `incoming` changes, for the learner to confirm: both sets of
 * counts, and the lessons done here that the file would mark as not done.
 */
export function replacementSummary(
  current: ProgressData,
  incoming: ProgressData,
  titleOf: (slug: string) => string = (s) => s,
): string {
  const undone = Object.keys(current.completed).filter((slug) => !(slug in incoming.completed));
  const lost = undone.length
    ? ` Lessons you finished here that the file does not list as done: ${undone.map(titleOf).join(', ')}.`
    : '';
  return `Your progress now: ${counts(current)}. The file: ${counts(incoming)}. Importing replaces all of it.${lost}`;
}
