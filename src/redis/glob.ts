/**
 * Redis's glob matcher (`stringmatchlen` in util.c), used by KEYS and SCAN MATCH: `*`, `?`,
 * `[abc]`, `[^a-z]` and backslash escapes, compared byte by byte.
 */

/** Tells whether `text` matches the Redis glob `pattern`. */
export function globMatch(pattern: string, text: string): boolean {
  return matchFrom(pattern, 0, text, 0);
}

function matchFrom(pattern: string, p: number, text: string, s: number): boolean {
  while (p < pattern.length && s <= text.length) {
    const c = pattern[p];
    if (c === '*') {
      while (pattern[p + 1] === '*') p++;
      if (p + 1 === pattern.length) return true;
      for (let k = s; k <= text.length; k++) {
        if (matchFrom(pattern, p + 1, text, k)) return true;
      }
      return false;
    }
    if (s >= text.length) return false;
    if (c === '?') {
      s++;
    } else if (c === '[') {
      const result = matchClass(pattern, p + 1, text.charCodeAt(s));
      if (!result.matched) return false;
      p = result.end;
      s++;
    } else {
      if (c === '\\' && p + 1 < pattern.length) p++;
      if (pattern[p] !== text[s]) return false;
      s++;
    }
    p++;
  }
  while (pattern[p] === '*') p++;
  return p >= pattern.length && s >= text.length;
}

/** Matches one `[...]` class starting after the bracket; `end` is the index of the closing `]`. */
function matchClass(pattern: string, start: number, code: number): { matched: boolean; end: number } {
  let p = start;
  const negate = pattern[p] === '^';
  if (negate) p++;
  let matched = false;
  for (;;) {
    if (p >= pattern.length) {
      // An unterminated class behaves as if closed at the end of the pattern, as in Redis.
      p--;
      break;
    }
    const c = pattern[p] as string;
    if (c === ']') break;
    if (c === '\\' && p + 1 < pattern.length) {
      p++;
      if (pattern.charCodeAt(p) === code) matched = true;
    } else if (pattern[p + 1] === '-' && p + 2 < pattern.length) {
      let lo = pattern.charCodeAt(p);
      let hi = pattern.charCodeAt(p + 2);
      if (lo > hi) [lo, hi] = [hi, lo];
      p += 2;
      if (code >= lo && code <= hi) matched = true;
    } else if (pattern.charCodeAt(p) === code) {
      matched = true;
    }
    p++;
  }
  return { matched: negate ? !matched : matched, end: p };
}
