import type { Diagnostic } from '../scenario/diagnostic';
import { fencedLines } from './claimsCheck';
import type { Lesson } from './types';

/**
 * A quiz shows its answer only once the learner commits, so the prose after it, up to the next
 * heading, must not state that answer first: a learner reads on before answering. What is
 * looked for is a number that only the right options contain (two digits or more; "9 848" and
 * "9.848 s" are the same digits), reported where the prose states it. Prose after an ```after
 * block for the quiz waits for the answer, so it is not read. True-false sets are not read
 * either: their statements are the question, not the answer.
 */
export function checkAnswerReveals(
  lessons: readonly Lesson[],
  textOf: (file: string) => string | undefined,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const lesson of lessons) {
    const text = textOf(lesson.file);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const fenced = fencedLines(text);
    for (const block of lesson.blocks) {
      if (block.kind !== 'quiz' || block.spec.kind === 'true-false') continue;
      const answers = answerGiveaways(block.spec.options);
      if (answers.length === 0) continue;
      // From the first part an ```after block holds back for this quiz on (prose or a player), all waits for the answer.
      const heldFrom = lesson.blocks.find((b) => b.after === block.id)?.line ?? Infinity;
      for (let n = block.line + 1; n <= lines.length && n < heldFrom; n++) {
        const line = lines[n - 1]!;
        if (fenced.has(n)) continue;
        if (/^#{1,6}\s/.test(line)) break;
        const found = answers.map((a) => ({ a, col: a.find(line) })).find((f) => f.col !== null);
        if (!found) continue;
        diagnostics.push({
          file: lesson.file,
          line: n,
          col: found.col! + 1,
          message: `the prose after quiz '${block.id}' states its answer (${found.a.shown}) before the learner commits`,
          hint: "move it into the quiz's explanations, a fill-in's model answer, or after a heading further on",
        });
        break;
      }
    }
  }
  return diagnostics;
}

interface Giveaway {
  shown: string;
  /** The 0-based column where `line` states it, or null. */
  find(line: string): number | null;
}

function answerGiveaways(options: readonly { text: string; correct: boolean }[]): Giveaway[] {
  const digitsOf = (t: string) => [...t.matchAll(NUMBER)].map((m) => m[0].replace(/\D/g, ''));
  const wrongDigits = new Set(options.filter((o) => !o.correct).flatMap((o) => digitsOf(o.text)));
  const out: Giveaway[] = [];
  for (const option of options.filter((o) => o.correct)) {
    for (const m of option.text.matchAll(NUMBER)) {
      const digits = m[0].replace(/\D/g, '');
      if (digits.length < 2 || wrongDigits.has(digits) || out.some((g) => g.shown === m[0])) continue;
      out.push({
        shown: m[0],
        find: (line) => {
          for (const n of line.matchAll(NUMBER)) if (n[0].replace(/\D/g, '') === digits) return n.index;
          return null;
        },
      });
    }
  }
  return out;
}

/** A number as prose writes it: digits grouped by spaces, commas or a decimal point ("9 848", "9.848", "10,000"). */
const NUMBER = /\d+(?:[ ,.]\d+)*/g;
