import { strtod } from '../numbers';

/** Score and lex range specs for ZRANGE BYSCORE / BYLEX, parsed like Redis's zslParse*Range. */

export interface ScoreRange {
  min: number;
  max: number;
  minExclusive: boolean;
  maxExclusive: boolean;
}

/** One bound: `(` makes it exclusive; the rest goes through plain `strtod` (spaces allowed). */
function parseScoreBound(text: string): { value: number; exclusive: boolean } | null {
  const exclusive = text.startsWith('(');
  const body = exclusive ? text.slice(1) : text;
  const result = strtod(body);
  if (result.end !== body.length || Number.isNaN(result.value)) return null;
  return { value: result.value, exclusive };
}

/** Parses BYSCORE bounds; null means `ERR min or max is not a float`. */
export function parseScoreRange(minText: string, maxText: string): ScoreRange | null {
  const min = parseScoreBound(minText);
  const max = parseScoreBound(maxText);
  if (!min || !max) return null;
  return { min: min.value, max: max.value, minExclusive: min.exclusive, maxExclusive: max.exclusive };
}

/** Tells whether a score falls inside the range. */
export function inScoreRange(range: ScoreRange, score: number): boolean {
  const aboveMin = range.minExclusive ? score > range.min : score >= range.min;
  const belowMax = range.maxExclusive ? score < range.max : score <= range.max;
  return aboveMin && belowMax;
}

/** A lex bound: `-` and `+` are the infinities, `[` inclusive, `(` exclusive. */
export type LexBound = { kind: 'min' } | { kind: 'max' } | { kind: 'value'; value: string; exclusive: boolean };

export interface LexRange {
  min: LexBound;
  max: LexBound;
}

function parseLexBound(text: string): LexBound | null {
  if (text === '+') return { kind: 'max' };
  if (text === '-') return { kind: 'min' };
  if (text.startsWith('(')) return { kind: 'value', value: text.slice(1), exclusive: true };
  if (text.startsWith('[')) return { kind: 'value', value: text.slice(1), exclusive: false };
  return null;
}

/** Parses BYLEX bounds; null means `ERR min or max not valid string range item`. */
export function parseLexRange(minText: string, maxText: string): LexRange | null {
  const min = parseLexBound(minText);
  const max = parseLexBound(maxText);
  return min && max ? { min, max } : null;
}

/** Tells whether a member falls inside the lex range. */
export function inLexRange(range: LexRange, member: string): boolean {
  const aboveMin =
    range.min.kind === 'min' ||
    (range.min.kind === 'value' && (range.min.exclusive ? member > range.min.value : member >= range.min.value));
  const belowMax =
    range.max.kind === 'max' ||
    (range.max.kind === 'value' && (range.max.exclusive ? member < range.max.value : member <= range.max.value));
  return aboveMin && belowMax;
}
