/** What a checker concluded about one invariant over a whole run. */
export interface Verdict {
  /** e.g. 'single-writer'. */
  invariant: string;
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
