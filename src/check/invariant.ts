import type { TraceEvent, TraceKind } from '../sim/traceEvents';
import type { PatternFacts } from './lockPatterns';
import type { VerdictOf } from './verdictOf';

/** How a run stopped when a cap stopped it (run-completes reads it; null while it runs or once it ended by itself). */
export interface RunCap {
  reason: 'event-cap' | 'time-cap' | 'script-cap';
  /** When it stopped, and the last event it recorded. */
  atMs: number;
  lastEventId: number;
  maxEvents: number;
  maxScriptInstructions: number;
  horizonMs: number;
}

export interface CheckOptions<Name extends string = string> {
  /** How many Redis nodes make a holder of `key` (1, or a Redlock majority). */
  quorumOf: (key: string) => number;
  /** The longest stall the progress checker tolerates. */
  progressWithinMs: number;
  /** The protected resource's kind: decides which resource checkers apply. */
  resourceKind: string;
  /** Invariants the scenario expects a verdict on, reported even where they would not apply. */
  expected: readonly string[];
  /** bounded-wait's limit (it applies only when set, or expected: then progress's limit is the default). */
  maxWaitMs?: number | null;
  /** calm-when-down's bound on requests per second to a down node. */
  downAttemptsPerSecond?: number | null;
  /** The cap that stopped the run, if one did. */
  cap?: RunCap | null;
  /** Judge this invariant alone (the explorer hunts one and reads no other verdict). */
  only?: Name;
}

/** What a checker is given: the run's checked events and what the run says about itself. */
export interface CheckRun {
  events: readonly TraceEvent[];
  /** The events of locks only one client may hold (see exclusiveOnly in invariants.ts). */
  exclusive: readonly TraceEvent[];
  patterns: PatternFacts;
  options: CheckOptions;
}

/**
 * One invariant: its name, the kinds of event its checker reads (besides run.start and run.end,
 * which every checker gets), when it can say anything about a run, and its checker. A checker
 * that does not apply (double charge without a payment provider) is still judged when the
 * scenario expects a verdict on it. Each lives beside its checker; invariants.ts lists them.
 */
export interface Invariant<Name extends string> {
  name: Name;
  reads: readonly TraceKind[];
  appliesTo: (run: CheckRun) => boolean;
  check: (run: CheckRun) => VerdictOf<Name>;
}

/** Declares an invariant, keeping its name's literal type (the registry derives InvariantName from it). */
export function defineInvariant<const Name extends string>(invariant: Invariant<Name>): Invariant<Name> {
  return invariant;
}

/** What a client believes it holds (beliefs.ts): a belief ends when its release is sent, so sends are read. */
export const BELIEF_KINDS: readonly TraceKind[] = [
  'lock.acquired',
  'lock.released',
  'lock.lost',
  'process.crash',
  'net.send',
];
/** Who waits for a lock, from the request to the answer (waiting.ts). */
export const WAIT_KINDS: readonly TraceKind[] = ['lock.request', 'lock.acquired', 'lock.failed', 'process.crash'];
