/**
 * Redis's glob matcher (`stringmatchlen` in 7.0's util.c), used by KEYS, SCAN MATCH and
 * CONFIG GET: `*`, `?`, `[abc]`, `[^a-z]` and backslash escapes, compared byte by byte.
 *
 * Redis gives up as soon as the text after one `*` cannot match anywhere: a longer match for an
 * earlier `*` would only start the rest later in the text, which cannot help. So only the most
 * recent `*` ever backtracks, and a pattern of many nested stars answers in time proportional to
 * pattern length × text length instead of exponentially. The loop below is that algorithm
 * written without recursion, keeping the same quirks (an empty text only matches an empty
 * pattern; a trailing unterminated `[` class or lone `\` is read as Redis reads it).
 */

/** Tells whether `text` matches the Redis glob `pattern`. */
export function globMatch(pattern: string, text: string): boolean {
  // The most recent `*`: where the pattern resumes after it, and the text position it is tried at.
  let star: StarPoint | null = null;
  let p = 0;
  let s = 0;
  for (;;) {
    const outcome = matchSegment(pattern, text, p, s);
    if (outcome === true) return true;
    if (outcome !== false) {
      star = outcome;
    } else if (star === null) {
      return false;
    } else {
      // The rest failed from here: try it one byte later, and give up once the text is used up.
      star = { p: star.p, s: star.s + 1 };
      if (star.s >= text.length) return false;
    }
    p = star.p;
    s = star.s;
  }
}

/** A `*` that still has text to match: the pattern index after it and the text index it starts at. */
interface StarPoint {
  p: number;
  s: number;
}

/**
 * Matches from (`p`, `s`) until the end (true), a mismatch (false), or a `*` that still has text
 * to match, which it hands back so the caller makes it the one backtracking point.
 */
function matchSegment(pattern: string, text: string, p: number, s: number): boolean | StarPoint {
  while (p < pattern.length && s < text.length) {
    const c = pattern[p];
    if (c === '*') {
      while (pattern[p + 1] === '*') p++;
      if (p + 1 === pattern.length) return true;
      return { p: p + 1, s };
    }
    if (c === '?') {
      // Any byte.
    } else if (c === '[') {
      const result = matchClass(pattern, p + 1, text.charCodeAt(s));
      if (!result.matched) return false;
      p = result.end;
    } else {
      if (c === '\\' && p + 1 < pattern.length) p++;
      if (pattern[p] !== text[s]) return false;
    }
    p++;
    s++;
    if (s === text.length) {
      while (pattern[p] === '*') p++;
      break;
    }
  }
  return p >= pattern.length && s >= text.length;
}

/** Redis compares class ranges as C `char`s, which are signed: bytes 128-255 sort below 0. */
function signedByte(code: number): number {
  return code >= 128 && code < 256 ? code - 256 : code;
}

/** Matches one `[...]` class starting after the bracket; `end` is the index of the closing `]`. */
function matchClass(pattern: string, start: number, code: number): { matched: boolean; end: number } {
  let p = start;
  const negate = pattern[p] === '^';
  if (negate) p++;
  let matched = false;
  for (;;) {
    if (pattern[p] === '\\' && p + 1 < pattern.length) {
      p++;
      if (pattern.charCodeAt(p) === code) matched = true;
    } else if (pattern[p] === ']') {
      break;
    } else if (p >= pattern.length) {
      // An unterminated class behaves as if closed at the end of the pattern, as in Redis.
      p--;
      break;
    } else if (pattern[p + 1] === '-' && p + 2 < pattern.length) {
      let lo = signedByte(pattern.charCodeAt(p));
      let hi = signedByte(pattern.charCodeAt(p + 2));
      if (lo > hi) [lo, hi] = [hi, lo];
      p += 2;
      const c = signedByte(code);
      if (c >= lo && c <= hi) matched = true;
    } else if (pattern.charCodeAt(p) === code) {
      matched = true;
    }
    p++;
  }
  return { matched: negate ? !matched : matched, end: p };
}
