import type { InvariantName } from './invariants';
import type { VerdictOf } from './verdictOf';

/** What a checker concluded about one invariant of the registry (invariants.ts) over a whole run. */
export type Verdict = VerdictOf<InvariantName>;
