/**
 * Number parsing and printing exactly as Redis 7.0 does it. Redis is picky: `INCR` refuses
 * " 1", "01" and "+1" (its `string2ll`), scores go through C's `strtod`, and doubles print with
 * `%.17g`. Getting these wrong is the most visible kind of infidelity, so they live in one place.
 */

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/** Parses a signed 64-bit integer with Redis's strict `string2ll` rules; null when invalid. */
export function parseInt64(text: string): bigint | null {
  // Redis refuses empty strings and anything of 21 bytes or more before looking at digits.
  if (text.length === 0 || text.length >= 21) return null;
  if (text === '0') return 0n;
  if (!/^-?[1-9][0-9]*$/.test(text)) return null;
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) return null;
  return value;
}

const SPACE = /[ \t\n\v\f\r]/;

/** Result of emulating C's `strtod`: the value and how many characters it consumed. */
export interface StrtodResult {
  value: number;
  /** Number of characters consumed; 0 when no conversion happened. */
  end: number;
  /** True when the literal was finite but the result overflowed or underflowed to zero. */
  rangeError: boolean;
}

/** Emulates glibc's `strtod`: leading spaces, sign, inf/nan words, hex and decimal literals. */
export function strtod(text: string): StrtodResult {
  let i = 0;
  while (i < text.length && SPACE.test(text[i] as string)) i++;
  let sign = 1;
  if (text[i] === '+' || text[i] === '-') {
    if (text[i] === '-') sign = -1;
    i++;
  }
  const rest = text.slice(i).toLowerCase();
  if (rest.startsWith('infinity')) return { value: sign * Infinity, end: i + 8, rangeError: false };
  if (rest.startsWith('inf')) return { value: sign * Infinity, end: i + 3, rangeError: false };
  if (rest.startsWith('nan')) {
    const paren = /^nan\([0-9a-z_]*\)/.exec(rest);
    return { value: NaN, end: i + (paren ? paren[0].length : 3), rangeError: false };
  }
  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?[0-9]+))?/.exec(rest);
  if (hex && ((hex[1] ?? '') + (hex[2] ?? '')).length > 0) return hexLiteral(hex, i, sign);
  const dec = /^([0-9]*)(?:\.([0-9]*))?/.exec(rest);
  const intDigits = dec?.[1] ?? '';
  const fracDigits = dec?.[2] ?? '';
  if (intDigits.length + fracDigits.length === 0) return { value: 0, end: 0, rangeError: false };
  let consumed = (dec?.[0] ?? '').length;
  const exp = /^e[+-]?[0-9]+/.exec(rest.slice(consumed));
  if (exp) consumed += exp[0].length;
  const literal = rest.slice(0, consumed);
  const magnitude = Number(
    literal.endsWith('.') ? literal.slice(0, -1) || '0' : literal.startsWith('.') ? `0${literal}` : literal,
  );
  const nonZeroDigits = /[1-9]/.test(intDigits + fracDigits);
  const rangeError = !Number.isFinite(magnitude) || (magnitude === 0 && nonZeroDigits);
  return { value: sign * magnitude, end: i + consumed, rangeError };
}

function hexLiteral(match: RegExpExecArray, start: number, sign: number): StrtodResult {
  const intPart = match[1] ?? '';
  const fracPart = match[2] ?? '';
  let value = 0;
  for (const digit of intPart) value = value * 16 + parseInt(digit, 16);
  let scale = 1 / 16;
  for (const digit of fracPart) {
    value += parseInt(digit, 16) * scale;
    scale /= 16;
  }
  const power = match[3] === undefined ? 0 : Number(match[3]);
  value *= 2 ** power;
  const rangeError = !Number.isFinite(value);
  return { value: sign * value, end: start + match[0].length, rangeError };
}

/**
 * Parses a double the way Redis's `string2d` does for scores: the whole string must be a
 * number, no leading space, not NaN, no overflow and no underflow to zero.
 */
export function parseStrictDouble(text: string): number | null {
  if (text.length === 0 || SPACE.test(text[0] as string)) return null;
  const result = strtod(text);
  if (result.end !== text.length || result.rangeError || Number.isNaN(result.value)) return null;
  return result.value;
}

/** Prints a double like C's `printf("%.17g")`, with Redis's `inf`/`-inf` spelling. */
export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, expText] = value.toExponential(16).split('e') as [string, string];
  const exponent = Number(expText);
  if (exponent < -4 || exponent >= 17) {
    const digits = stripZeros(mantissa);
    const sign = exponent < 0 ? '-' : '+';
    return `${digits}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return stripZeros(value.toFixed(16 - exponent));
}

function stripZeros(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}
