/**
 * A number as a lesson's prose states it ("11.65 s", "about 120 attempts", "over 20 seconds",
 * "near 16%"): its value, unit, how precisely it is written and how it is hedged. A claim agrees
 * with a run when the run's figure, written to the same precision, is the stated one; "about"
 * allows a tenth either way (at most ten steps of the last digit), "over" and "under" a bound.
 */
export interface StatedNumber {
  value: number;
  unit: 'ms' | 's' | 'percent' | null;
  /** Half of the last written digit's place: "11.65" → 0.005, "120" → 0.5. */
  halfStep: number;
  hedge: 'exact' | 'about' | 'over' | 'under' | 'at-least' | 'at-most';
  /** The number as written, for messages. */
  text: string;
}

const HEDGES: [RegExp, StatedNumber['hedge']][] = [
  [/\b(about|around|roughly|nearly|near|almost|approximately|some)\s*$|~\s*$/i, 'about'],
  [/\bat least\s*$/i, 'at-least'],
  [/\b(at most|up to)\s*$/i, 'at-most'],
  [/\b(over|more than|above|after|past)\s*$/i, 'over'],
  [/\b(under|less than|below|within|before)\s*$/i, 'under'],
];

// A comma groups thousands only before three digits: in "A gets 2, B gets 3" the number is 2.
const NUMBER =
  /(?<![\w.])((?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)\s*(ms\b|milliseconds?\b|s\b|seconds?\b|%|percent\b)?/i;

/** The first number in `says` outside `inline code` (a reply such as `0`), or null when it has none. */
export function readStated(says: string): StatedNumber | null {
  const match = NUMBER.exec(says.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)));
  if (!match) return null;
  const digits = match[1]!.replace(/,(?=\d{3}\b)/g, '');
  const decimals = digits.includes('.') ? digits.length - digits.indexOf('.') - 1 : 0;
  const unitWord = (match[2] ?? '').toLowerCase();
  const unit =
    unitWord === ''
      ? null
      : unitWord.startsWith('ms') || unitWord.startsWith('milli')
        ? 'ms'
        : unitWord === '%' || unitWord === 'percent'
          ? 'percent'
          : 's';
  const before = says.slice(0, match.index);
  const hedge = HEDGES.find(([pattern]) => pattern.test(before))?.[1] ?? 'exact';
  return { value: Number(digits), unit, halfStep: 0.5 * 10 ** -decimals, hedge, text: match[0].trim() };
}

/**
 * Whether a run's figure agrees with the stated number. `measured` is in milliseconds for a
 * time, a percentage for a rate, a plain number otherwise; a time stated in seconds is compared
 * in seconds, to the precision it is written with.
 */
export function agrees(measured: number, stated: StatedNumber): boolean {
  const value = stated.unit === 's' ? measured / 1000 : measured;
  const epsilon = 1e-9;
  switch (stated.hedge) {
    case 'exact':
      return Math.abs(value - stated.value) <= stated.halfStep + epsilon;
    case 'about':
      // A tenth either way, but no looser than ten steps of the last written digit: "about 10 s"
      // is 9–11 s, "about 6.35 s" is 6.30–6.40 s.
      return (
        Math.abs(value - stated.value) <=
        Math.max(stated.halfStep, Math.min(0.1 * Math.abs(stated.value), 10 * stated.halfStep)) + epsilon
      );
    case 'over':
      return value > stated.value;
    case 'under':
      return value < stated.value;
    case 'at-least':
      return value >= stated.value - epsilon;
    case 'at-most':
      return value <= stated.value + epsilon;
  }
}

/** The measured figure written as the prose would write it, for a message: "11.604 s", "117". */
export function writeLike(measured: number, stated: StatedNumber): string {
  if (stated.unit === 's') return `${Number((measured / 1000).toFixed(3))} s`;
  if (stated.unit === 'ms') return `${Number(measured.toFixed(1))} ms`;
  if (stated.unit === 'percent') return `${Number(measured.toFixed(1))}%`;
  return `${Number(measured.toFixed(2))}`;
}
