import type { Lesson } from '../../lessons/types';
import type { ProgressData, QuizAnswer } from './progressData';

/**
 * What the site's lessons let a learner save, block by block, so that imported progress can be
 * checked against it: a file may only speak of lessons, blocks, options and fields that exist,
 * with values the blocks themselves could have written.
 */
export type KnownBlock =
  | { kind: 'choice'; multiple: boolean; options: string[]; hints: number }
  | { kind: 'true-false'; statements: string[]; hints: number }
  | { kind: 'match'; problems: string[]; tools: string[] }
  | { kind: 'reflect' }
  | { kind: 'checklist'; items: string[] }
  | { kind: 'fill-in'; fields: string[] };

/** Lesson slug -> block id -> what the block saves. */
export type KnownLessons = ReadonlyMap<string, ReadonlyMap<string, KnownBlock>>;

/** The longest note a file may bring: far beyond anything typed, short of filling storage. */
export const MAX_NOTE_CHARS = 100_000;

/** The saving blocks of every lesson, by slug and block id. */
export function knownLessons(lessons: readonly Lesson[]): KnownLessons {
  const out = new Map<string, Map<string, KnownBlock>>();
  for (const lesson of lessons) {
    const blocks = new Map<string, KnownBlock>();
    for (const b of lesson.blocks) {
      if (b.kind === 'quiz') {
        const s = b.spec;
        blocks.set(
          b.id,
          s.kind === 'true-false'
            ? { kind: 'true-false', statements: s.statements.map((x) => x.id), hints: s.hints.length }
            : {
                kind: 'choice',
                multiple: s.kind === 'multiple',
                options: s.options.map((o) => o.id),
                hints: s.hints.length,
              },
        );
      } else if (b.kind === 'match')
        blocks.set(b.id, {
          kind: 'match',
          problems: b.spec.problems.map((p) => p.id),
          tools: b.spec.tools.map((t) => t.id),
        });
      else if (b.kind === 'reflect') blocks.set(b.id, { kind: 'reflect' });
      else if (b.kind === 'checklist') blocks.set(b.id, { kind: 'checklist', items: b.spec.items.map((i) => i.id) });
      else if (b.kind === 'fill-in') blocks.set(b.id, { kind: 'fill-in', fields: b.spec.fields.map((f) => f.id) });
    }
    out.set(lesson.frontmatter.slug, blocks);
  }
  return out;
}

/** An ISO time as `toISOString` writes it, for a real calendar date. */
function isIsoTime(v: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(v) &&
    !Number.isNaN(Date.parse(v)) &&
    new Date(v).toISOString().slice(0, 10) === v.slice(0, 10)
  );
}

const quote = (v: unknown) => JSON.stringify(v)?.slice(0, 60) ?? String(v);

/**
 * Every way `data` goes beyond what the lessons could have saved, one sentence each, naming the
 * entry (`quizzes["espresso/quiz-1"].selected`). Empty when the progress can be imported as is.
 */
export function progressProblems(data: ProgressData, known: KnownLessons): string[] {
  const out: string[] = [];
  /** The block a `<slug>/<block>[/<part>]` key points at, or a problem saying why there is none. */
  const blockOf = (table: string, key: string, parts: 2 | 3): { block: KnownBlock; part?: string } | undefined => {
    const bits = key.split('/');
    const [slug = '', blockId = '', part] = bits;
    const lesson = known.get(slug);
    if (!lesson) out.push(`${table}[${quote(key)}]: there is no lesson '${slug}' on this site`);
    else if (bits.length !== parts) out.push(`${table}[${quote(key)}]: not a key this site writes`);
    else if (!lesson.has(blockId)) out.push(`${table}[${quote(key)}]: lesson '${slug}' has no block '${blockId}'`);
    else return { block: lesson.get(blockId)!, ...(part === undefined ? {} : { part }) };
    return undefined;
  };

  for (const [slug, at] of Object.entries(data.completed)) {
    if (!known.has(slug)) out.push(`completed[${quote(slug)}]: there is no lesson '${slug}' on this site`);
    else if (!isIsoTime(at))
      out.push(`completed[${quote(slug)}]: ${quote(at)} is not a date (expected a time like 2025-01-31T09:30:00.000Z)`);
  }
  for (const [key, answer] of Object.entries(data.quizzes)) {
    const found = blockOf('quizzes', key, 2);
    if (found) out.push(...answerProblems(`quizzes[${quote(key)}]`, answer, found.block));
  }
  for (const [key, text] of Object.entries(data.notes)) {
    const found = blockOf('notes', key, key.split('/').length === 3 ? 3 : 2);
    if (!found) continue;
    const where = `notes[${quote(key)}]`;
    if (
      found.block.kind === 'fill-in'
        ? found.part === undefined || !found.block.fields.includes(found.part)
        : found.block.kind !== 'reflect'
    )
      out.push(`${where}: not a note this block keeps`);
    else if (text.length > MAX_NOTE_CHARS)
      out.push(`${where}: ${text.length} characters, more than the ${MAX_NOTE_CHARS} a note may hold`);
  }
  for (const key of Object.keys(data.checks)) {
    const found = blockOf('checks', key, 3);
    if (found && (found.block.kind !== 'checklist' || !found.block.items.includes(found.part ?? '')))
      out.push(`checks[${quote(key)}]: not an item of a checklist`);
  }
  return out;
}

function answerProblems(where: string, a: QuizAnswer, block: KnownBlock): string[] {
  const out: string[] = [];
  const hints = block.kind === 'choice' || block.kind === 'true-false' ? block.hints : 0;
  if (!Number.isInteger(a.hintsShown) || a.hintsShown < 0 || a.hintsShown > hints)
    out.push(`${where}.hintsShown: ${quote(a.hintsShown)}, but the block has ${hints} hint${hints === 1 ? '' : 's'}`);
  const ghosts = (what: string, ids: readonly string[], allowed: readonly string[]) => {
    const unknown = ids.filter((id) => !allowed.includes(id));
    if (unknown.length)
      out.push(
        `${where}.${what}: ${unknown.map(quote).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the block (it has ${allowed.join(', ') || 'none'})`,
      );
  };
  const picks = Object.entries(a.picks);
  switch (block.kind) {
    case 'choice':
      ghosts('selected', a.selected, block.options);
      if (!block.multiple && a.selected.length > 1)
        out.push(`${where}.selected: ${a.selected.length} options picked in a single-choice quiz`);
      ghosts(
        'picks',
        picks.map(([k]) => k),
        [],
      );
      break;
    case 'true-false':
      ghosts('selected', a.selected, []);
      ghosts(
        'picks',
        picks.map(([k]) => k),
        block.statements,
      );
      ghosts(
        'picks (verdicts)',
        picks.map(([, v]) => v),
        ['true', 'false'],
      );
      break;
    case 'match':
      ghosts('selected', a.selected, []);
      ghosts(
        'picks',
        picks.map(([k]) => k),
        block.problems,
      );
      ghosts(
        'picks (tools)',
        picks.map(([, v]) => v).filter((v) => v !== ''),
        block.tools,
      );
      break;
    default:
      out.push(`${where}: the block is a ${block.kind}, not a quiz`);
  }
  return out;
}
