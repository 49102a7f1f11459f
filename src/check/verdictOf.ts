/**
 * What a checker concluded about one invariant over a whole run, for an invariant named `Name`.
 * `Verdict` (verdict.ts) is this for every invariant of the registry; the checkers build theirs
 * here, below the registry, so that naming the registry's invariants makes no import cycle.
 */
export interface VerdictOf<Name extends string> {
  /** e.g. 'single-writer'. */
  invariant: Name;
  holds: boolean;
  /** When it first broke (SimTimeMs), or null when it held. */
  atMs: number | null;
  /** The trace events that prove it broke (e.g. the two conflicting writes). */
  eventIds: number[];
  /** One plain sentence a learner can read next to the marker. */
  explanation: string;
  /** How many separate violations the run had. */
  violations: number;
}

/** One break of an invariant: when, the events that prove it, and the sentence that says so. */
export interface Break {
  at: number;
  ids: number[];
  text: string;
}

/**
 * The verdict of a run with `violations` breaks, the first of them `first` (none: it held, and
 * `fine` says what held). Every checker ends with it, so a verdict reads the same everywhere.
 */
export function verdict<Name extends string>(
  invariant: Name,
  first: Break | null | undefined,
  violations: number,
  fine: string,
): VerdictOf<Name> {
  return {
    invariant,
    holds: !first,
    atMs: first?.at ?? null,
    eventIds: first?.ids ?? [],
    explanation: first?.text ?? fine,
    violations,
  };
}
